/**
 * Runs the hooks of one event that match: all in parallel, each with its
 * own timeout, and reports their outcomes in declaration order (so a merge
 * is the same whichever hook finished first).
 */
import type { HookAnswer, PolicyDecision } from "@agent-tools/core/policy";
import type { HookRunContext, HookRunOutcome } from "./hook-run.js";
import type { HookEventName, HookHandler, HookInput, HookSettings } from "./hook-settings.js";
import { selectHooks } from "./match-hooks.js";
import { runCommandHook } from "./run-command-hook.js";
import { runFunctionHook } from "./run-function-hook.js";
import { runHttpHook } from "./run-http-hook.js";

/** One hook's run. */
export interface HookResult {
  readonly name: string;
  readonly handler: HookHandler;
  readonly outcome: HookRunOutcome;
  readonly durationMs: number;
}

function runHook(handler: HookHandler, input: HookInput, context: HookRunContext): Promise<HookRunOutcome> {
  if (handler.type === "function") return runFunctionHook(handler, input, context);
  if (handler.type === "command") return runCommandHook(handler, input, context);
  return runHttpHook(handler, input, context);
}

/**
 * Runs every hook of `event` whose matcher selects `value` (the tool name,
 * or the session/subagent payload's value), in parallel; resolves with one
 * result per hook in declaration order. Never rejects.
 */
export async function dispatchHooks(
  settings: HookSettings,
  event: HookEventName,
  value: string | undefined,
  run: { input: HookInput; context: HookRunContext },
): Promise<HookResult[]> {
  const selected = selectHooks(settings, event, value);
  return Promise.all(
    selected.map(async ({ handler, name }) => {
      const started = performance.now();
      const outcome = await runHook(handler, run.input, run.context).catch((error: unknown): HookRunOutcome => ({ kind: "failed", error: String(error) }));
      return { name, handler, outcome, durationMs: Math.round((performance.now() - started) * 100) / 100 };
    }),
  );
}

/** The decision an answer gives for `event` (a block or `continue: false` is a deny, whatever else it says), with its reason. */
export function decisionOf(result: HookResult, event: HookEventName): { decision?: PolicyDecision; reason?: string } {
  const outcome = result.outcome;
  if (outcome.kind === "failed") return {};
  if (outcome.kind === "blocked") return { decision: "deny", reason: outcome.reason };
  const output = outcome.output;
  const specific = output.hookSpecificOutput;
  const stopped = output.decision === "block" || output.continue === false;
  const reason = specific?.permissionDecisionReason ?? output.reason ?? output.stopReason;
  if (stopped) return { decision: "deny", ...(reason === undefined ? {} : { reason }) };
  if (event === "PreToolUse" && specific?.permissionDecision !== undefined) {
    return { decision: specific.permissionDecision, ...(reason === undefined ? {} : { reason }) };
  }
  if (event === "PermissionRequest" && specific?.decision !== undefined) {
    const message = specific.decision.message ?? reason;
    return { decision: specific.decision.behavior, ...(message === undefined ? {} : { reason: message }) };
  }
  return {};
}

/** A result as `explain` and the events report it. */
export function toHookAnswer(result: HookResult, event: HookEventName): HookAnswer {
  const { decision, reason } = decisionOf(result, event);
  return Object.freeze({
    event,
    hook: result.name,
    kind: result.handler.type,
    ...(decision === undefined ? {} : { decision }),
    ...(reason === undefined ? {} : { reason }),
    ...(result.outcome.kind === "failed" ? { error: result.outcome.error } : {}),
    durationMs: result.durationMs,
  });
}
