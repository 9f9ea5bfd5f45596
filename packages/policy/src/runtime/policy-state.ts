/**
 * What one registry's permission policy holds, and the hook inputs and run
 * contexts built from it.
 */
import type { RunningProcess } from "@agent-tools/core";
import type { PolicyCall, ToolCallPolicyEnvironment } from "@agent-tools/core/policy";
import type { HookRunContext } from "../hooks/hook-run.js";
import type { HookEventName, HookInput, HookSettings } from "../hooks/hook-settings.js";
import type { CompiledPermissions } from "../rules/compile-permissions.js";
import type { RuleEnvironment } from "../rules/evaluate-permissions.js";

/** One registry's policy: its compiled rules, its hooks, and what it started. */
export interface PolicyState {
  readonly compiled: CompiledPermissions;
  readonly hooks: HookSettings;
  readonly environment: ToolCallPolicyEnvironment;
  readonly ruleEnvironment: RuleEnvironment;
  readonly sessionId?: string;
  /** Command hooks running now (killed by `close`). */
  readonly running: Set<RunningProcess>;
  /** The events that have at least one hook (the others skip the hook machinery). */
  readonly hookedEvents: ReadonlySet<HookEventName>;
  /** True when some hook is a command (the process runner is looked up only then). */
  readonly usesProcesses: boolean;
}

/** The events of `hooks` with at least one handler, and whether any handler is a command. */
export function hookFactsOf(hooks: HookSettings): { hookedEvents: ReadonlySet<HookEventName>; usesProcesses: boolean } {
  const hookedEvents = new Set<HookEventName>();
  let usesProcesses = false;
  for (const [event, matchers] of Object.entries(hooks) as [HookEventName, HookSettings[HookEventName]][]) {
    for (const matcher of matchers ?? []) {
      if (matcher.hooks.length > 0) hookedEvents.add(event);
      if (matcher.hooks.some((handler) => handler.type === "command")) usesProcesses = true;
    }
  }
  return { hookedEvents, usesProcesses };
}

/** The run context of the hooks of one call or event. */
export function hookContextOf(state: PolicyState, signal: AbortSignal): HookRunContext {
  return {
    workdir: state.environment.workdir,
    signal,
    processRunner: state.usesProcesses ? state.environment.processRunner() : undefined,
    running: state.running,
  };
}

/** The common part of every hook input. */
export function baseHookInput(state: PolicyState, event: HookEventName): HookInput {
  return {
    hook_event_name: event,
    ...(state.sessionId === undefined ? {} : { session_id: state.sessionId }),
    cwd: state.environment.workdir,
    permission_mode: state.compiled.mode,
  };
}

/** The input of a tool event's hooks. */
export function toolHookInput(state: PolicyState, event: HookEventName, call: PolicyCall, extra: Record<string, unknown> = {}): HookInput {
  return { ...baseHookInput(state, event), tool_name: call.toolName, tool_input: call.input, tool_use_id: call.callId, ...extra };
}
