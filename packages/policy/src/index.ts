/**
 * @agent-tools/policy: permission rules with specifiers (Bash command
 * patterns over the parsed command line, path globs, MCP names), modes and
 * layers, lifecycle hooks (in-process functions, commands, HTTP endpoints),
 * and a simulator that explains every decision. `createPermissionPolicy`
 * gives core's registry its `policy`; `@agent-tools/sdk` builds it from the
 * `permissions` and `hooks` options.
 */
export { createPermissionPolicy } from "./runtime/create-permission-policy.js";
export type { PermissionPolicyOptions } from "./runtime/create-permission-policy.js";
export { checkPermissionSettings, PERMISSION_LAYERS, PERMISSION_MODES } from "./rules/permission-settings.js";
export type {
  CheckedPermissionSettings,
  LayeredPermissionSettings,
  PermissionLayer,
  PermissionMode,
  PermissionSettings,
  RuleListName,
} from "./rules/permission-settings.js";
export { checkHookSettings } from "./hooks/check-hook-settings.js";
export { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENT_NAMES, MAX_HOOK_OUTPUT_BYTES, MAX_HOOK_TIMEOUT_MS } from "./hooks/hook-settings.js";
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
} from "./hooks/hook-settings.js";
export { lintPermissions } from "./rules/lint-permissions.js";
export type { LintOptions, PermissionFinding, PermissionFindingKind } from "./rules/lint-permissions.js";
export { replayPermissions } from "./rules/replay-permissions.js";
export type { RecordedCall, ReplayOptions, ReplayReport, ReplayedCall } from "./rules/replay-permissions.js";
export type { RuleEnvironment, RuleVerdict } from "./rules/evaluate-permissions.js";
export { loadShellParser } from "./shell/shell-parser.js";
export type { ShellParser } from "./shell/shell-parser.js";
export type { CommandPart, ParsedCommandLine, ShellWord } from "./shell/command-parts.js";
