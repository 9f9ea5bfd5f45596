/**
 * `@agent-tools/policy/hooks`: the hook protocol (events, matchers,
 * function / command / HTTP handlers, the JSON a hook reads and answers) and
 * the check the registry runs on a `hooks` option.
 *
 * @packageDocumentation
 */
export { checkHookSettings } from "./check-hook-settings.js";
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENT_NAMES, MAX_HOOK_OUTPUT_BYTES, MAX_HOOK_TIMEOUT_MS } from "./hook-settings.js";
export type {
  CommandHookHandler,
  FunctionHookHandler,
  FunctionHookOptions,
  HookEventName,
  HookHandler,
  HookInput,
  HookKind,
  HookMatcher,
  HookOutput,
  HookSettings,
  HookSpecificOutput,
  HttpHookHandler,
} from "./hook-settings.js";
