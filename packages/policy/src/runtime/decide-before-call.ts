/**
 * The decision before a call runs: the PreToolUse hooks first (they may
 * rewrite the input: it is validated again by the tool's schema, and the
 * rules judge the rewritten input), then the rules, then the merge:
 *
 * - a deny of the rules (a rule, plan or dontAsk mode) always wins, even over a hook's allow;
 * - a hook's deny wins over a rule's allow (it is decided before the rules run);
 * - a hook's allow skips a rule's (or the approval fallback's) ask;
 * - a hook's ask forces an ask, its defer a defer, even where a rule allows
 *   (in dontAsk mode both deny, as the rules' asks do);
 * - no hook decision: the rules decide.
 *
 * Never rejects: a failure inside denies the call with the reason.
 */
import type { HookAnswer, PolicyCall, PolicyVerdict } from "@agent-tools/core/policy";
import { dispatchHooks } from "../hooks/dispatch-hooks.js";
import { type PreToolUseDecision, mergePreToolUse } from "../hooks/merge-hook-results.js";
import { type RuleVerdict, evaluatePermissions } from "../rules/evaluate-permissions.js";
import { type PolicyState, hookContextOf, toolHookInput } from "./policy-state.js";

function denied(reason: string, hooks: readonly HookAnswer[], layer = "hook"): PolicyVerdict {
  return Object.freeze({ decision: "deny", layer, reason, hooks });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fromRules(rules: RuleVerdict): Omit<PolicyVerdict, "hooks"> {
  return {
    decision: rules.decision,
    ...(rules.rule === undefined ? {} : { rule: rules.rule }),
    ...(rules.layer === undefined ? {} : { layer: rules.layer }),
    ...(rules.reason === undefined ? {} : { reason: rules.reason }),
  };
}

/** Merges the rules' verdict with the hooks' decision (see the module comment). */
function merge(rules: RuleVerdict, pre: PreToolUseDecision | undefined): Omit<PolicyVerdict, "hooks"> {
  const hookDecision = pre?.decision;
  if (rules.decision === "deny" || hookDecision === undefined) return fromRules(rules);
  if (hookDecision === "allow" && rules.decision === "allow") return fromRules(rules);
  return {
    decision: hookDecision,
    layer: "hook",
    ...(rules.rule !== undefined && rules.decision === hookDecision ? { rule: rules.rule } : {}),
    ...(pre?.reason === undefined ? {} : { reason: pre.reason }),
  };
}

/** dontAsk mode: a hook's ask or defer is denied too, as the rules' asks are. */
function inMode(state: PolicyState, verdict: Omit<PolicyVerdict, "hooks">): Omit<PolicyVerdict, "hooks"> {
  if (state.compiled.mode !== "dontAsk" || (verdict.decision !== "ask" && verdict.decision !== "defer")) return verdict;
  return {
    ...verdict,
    decision: "deny",
    reason: `${verdict.reason ?? "A hook asked for approval of this call."} The session is in dontAsk mode, so it is denied instead. Do not retry it.`,
  };
}

/** Options of {@link decideBeforeCall}. */
export interface DecideOptions {
  readonly signal: AbortSignal;
  /** False: the rules alone (explain without hooks). */
  readonly runHooks: boolean;
}

/** Decides `call` (beforeCall, and explain). Never rejects. */
export async function decideBeforeCall(state: PolicyState, call: PolicyCall, options: DecideOptions): Promise<PolicyVerdict> {
  let answers: readonly HookAnswer[] = [];
  try {
    const pre =
      options.runHooks && state.hookedEvents.has("PreToolUse")
        ? mergePreToolUse(
            await dispatchHooks(state.hooks, "PreToolUse", call.toolName, {
              input: toolHookInput(state, "PreToolUse", call),
              context: hookContextOf(state, options.signal),
            }),
          )
        : undefined;
    answers = pre?.answers ?? [];
    if (pre?.decision === "deny") return denied(pre.reason ?? `A PreToolUse hook denied this ${call.toolName} call.`, answers);
    let input = call.input;
    let updatedInput: Record<string, unknown> | undefined;
    if (pre?.updatedInput !== undefined) {
      if (call.revalidate === undefined)
        return denied(`A PreToolUse hook rewrote the ${call.toolName} input, and the rewrite cannot be validated here.`, answers);
      try {
        updatedInput = call.revalidate(pre.updatedInput);
      } catch (error) {
        return denied(`A PreToolUse hook rewrote the ${call.toolName} input to one that is not valid, so the call is denied: ${messageOf(error)}`, answers);
      }
      input = updatedInput;
    }
    const rules = evaluatePermissions(state.compiled, { toolName: call.toolName, input, metadata: call.metadata }, state.ruleEnvironment);
    const verdict = inMode(state, merge(rules, pre));
    return Object.freeze({
      ...verdict,
      ...(updatedInput === undefined || verdict.decision === "deny" ? {} : { updatedInput }),
      ...(pre?.additionalContext === undefined || verdict.decision === "deny" ? {} : { additionalContext: pre.additionalContext }),
      hooks: answers,
    });
  } catch (error) {
    return denied(`The permission policy failed while deciding this ${call.toolName} call (${messageOf(error)}), so it is denied.`, answers, "default");
  }
}
