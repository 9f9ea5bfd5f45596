/**
 * The hooks of the ask path (PermissionRequest) and of the events that are
 * not about one call (SessionStart, SessionEnd, SubagentStart, SubagentStop).
 */
import { SdkError } from "@agent-tools/core";
import type { HookAnswer, PolicyCall, PolicyVerdict } from "@agent-tools/core/policy";
import { dispatchHooks, toHookAnswer } from "../hooks/dispatch-hooks.js";
import type { HookEventName } from "../hooks/hook-settings.js";
import { mergePermissionRequest } from "../hooks/merge-hook-results.js";
import { type PolicyState, baseHookInput, hookContextOf, toolHookInput } from "./policy-state.js";

/**
 * The events `notify` takes, and the payload keys their matcher is matched
 * against, the first present (Claude Code's `source`, `reason`, `agent_type`;
 * the subagents package sends `agent_role`).
 */
const NOTIFY_EVENTS: Readonly<Record<string, readonly string[]>> = {
  SessionStart: ["source"],
  SessionEnd: ["reason"],
  SubagentStart: ["agent_type", "agent_role"],
  SubagentStop: ["agent_type", "agent_role"],
};

/**
 * The PermissionRequest hooks of a call the policy would ask for (they see
 * the rewritten input, and `permission_decision` / `permission_decision_reason`
 * of the verdict). A failure or a deny denies; else an allow allows; else
 * `undefined` (the host's `onAsk` decides).
 */
export async function requestPermission(
  state: PolicyState,
  asked: { readonly call: PolicyCall; readonly verdict: PolicyVerdict },
  signal: AbortSignal,
): Promise<{ decision: "allow" | "deny"; reason?: string; hooks: readonly HookAnswer[] } | undefined> {
  if (!state.hookedEvents.has("PermissionRequest")) return undefined;
  const { call, verdict } = asked;
  const seen: PolicyCall = verdict.updatedInput === undefined ? call : { ...call, input: verdict.updatedInput };
  const extra = { permission_decision: verdict.decision, ...(verdict.reason === undefined ? {} : { permission_decision_reason: verdict.reason }) };
  const results = await dispatchHooks(state.hooks, "PermissionRequest", call.toolName, {
    input: toolHookInput(state, "PermissionRequest", seen, extra),
    context: hookContextOf(state, signal),
  });
  const merged = mergePermissionRequest(results);
  if (merged.decision === undefined) return undefined;
  return { decision: merged.decision, ...(merged.reason === undefined ? {} : { reason: merged.reason }), hooks: merged.answers };
}

/**
 * Runs the hooks of a session or subagent event; failures are logged
 * (`logger.warn`) and otherwise ignored. Rejects with `SdkError` for another event name.
 */
export async function notifyHooks(
  state: PolicyState,
  given: { readonly event: string; readonly payload: Record<string, unknown> },
  signal: AbortSignal,
): Promise<readonly HookAnswer[]> {
  const { event, payload } = given;
  const keys = NOTIFY_EVENTS[event];
  if (keys === undefined) {
    throw new SdkError("invalid_options", `notify takes ${Object.keys(NOTIFY_EVENTS).join(", ")}, not "${event}".`, { event });
  }
  const value = keys.map((key) => payload[key]).find((entry): entry is string => typeof entry === "string");
  const name = event as HookEventName;
  const results = await dispatchHooks(state.hooks, name, value, {
    input: { ...payload, ...baseHookInput(state, name) },
    context: hookContextOf(state, signal),
  });
  for (const result of results) {
    if (result.outcome.kind === "failed") {
      state.environment.logger.warn(`The ${event} hook "${result.name}" failed (${result.outcome.error}); it is ignored.`, {
        event,
        hook: result.name,
        error: result.outcome.error,
      });
    }
  }
  return results.map((result) => toHookAnswer(result, name));
}
