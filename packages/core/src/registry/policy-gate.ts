/**
 * The executor's side of a permission policy: asks the registry's
 * {@link ToolCallPolicy} before a call runs (and settles `ask` / `defer`
 * through PermissionRequest hooks and the host's `onAsk`), and lets it
 * rewrite what the model reads after the call.
 */
import { raceWithAbort } from "../abort.js";
import { ToolError } from "../errors.js";
import { shortenForMessage } from "../quote.js";
import type { ToolContent, ToolDefinition, ToolResult } from "../types.js";
import { type ApprovalOptions, callMetadata } from "./approval-policy.js";
import { checkArgumentLimits } from "./argument-limits.js";
import { rejectUnknownKeys, validateArguments } from "./arguments.js";
import type { PolicyCall, PolicyVerdict, ToolCallPolicy } from "./tool-call-policy.js";

/** What a call may run with once the policy let it. */
export interface PolicyAdmission {
  /** The input the tool runs with (a PreToolUse hook may have rewritten it). */
  readonly input: unknown;
  readonly call: PolicyCall;
  /** Text a hook asked to add to what the model reads of this call. */
  readonly additionalContext?: string;
}

/**
 * The policy's view of a call, with `revalidate` checking a rewritten input
 * exactly as the executor checked the model's.
 */
export function policyCallOf(tool: ToolDefinition, callId: string, input: unknown): PolicyCall {
  const revalidate = (next: Record<string, unknown>): Record<string, unknown> => {
    if (next === null || typeof next !== "object" || Array.isArray(next)) {
      throw new ToolError("invalid_arguments", `A hook rewrote the ${tool.name} input to something that is not an object.`);
    }
    checkArgumentLimits(tool.name, next);
    if (!tool.allowUnknownArguments) rejectUnknownKeys(tool.name, next, tool.jsonSchema);
    return (tool.inputSchema ? validateArguments(tool.name, next, tool.inputSchema) : next) as Record<string, unknown>;
  };
  const plain = input !== null && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  return Object.freeze({ callId, toolName: tool.name, input: plain, metadata: callMetadata(tool, input), revalidate });
}

/** The refusal a model reads when the policy denies a call: its reason, rule and layer. */
export function policyRefusal(tool: ToolDefinition, verdict: Pick<PolicyVerdict, "reason" | "rule" | "layer">): ToolError {
  const text =
    verdict.reason ??
    `${tool.name} is denied by the host's permission policy${verdict.rule === undefined ? "" : ` (rule ${JSON.stringify(verdict.rule)})`}. Do not retry it; take a different approach.`;
  return new ToolError("permission_denied", shortenForMessage(text, 2_000), {
    recoverable: false,
    details: { ...(verdict.rule === undefined ? {} : { rule: verdict.rule }), ...(verdict.layer === undefined ? {} : { layer: verdict.layer }) },
  });
}

/** Options of {@link admitByPolicy}. */
export interface AdmitOptions {
  readonly policy: ToolCallPolicy;
  readonly approval: ApprovalOptions | undefined;
  /** The host already approved this very call (`approvalGranted`). */
  readonly granted: boolean;
  readonly signal: AbortSignal;
  readonly cancelled: () => Error;
  /** Awaited after the user approves through `onAsk`, before the call goes on (the ledger of a durable run records it). */
  readonly onApproved?: () => Promise<void>;
}

/**
 * Decides a call through the policy. Resolves with the input to run with;
 * throws `ToolError` (`permission_denied`) when the call may not run, or the
 * cancellation error when the signal aborts while a hook or the host decides.
 */
export async function admitByPolicy(tool: ToolDefinition, call: PolicyCall, options: AdmitOptions): Promise<PolicyAdmission> {
  const { policy, signal, cancelled } = options;
  const verdict = await raceWithAbort(
    Promise.resolve().then(() => policy.beforeCall(call, signal)),
    signal,
    cancelled,
  );
  // Checked again here whatever the policy did: a tool never receives an input its schema refuses.
  const input = verdict.updatedInput === undefined ? call.input : (call.revalidate?.(verdict.updatedInput) ?? verdict.updatedInput);
  const finalCall: PolicyCall = verdict.updatedInput === undefined ? call : Object.freeze({ ...call, input: input as Record<string, unknown> });
  const admitted: PolicyAdmission = {
    input,
    call: finalCall,
    ...(verdict.additionalContext === undefined ? {} : { additionalContext: verdict.additionalContext }),
  };
  if (verdict.decision === "allow") return admitted;
  if (verdict.decision === "deny") throw policyRefusal(tool, verdict);
  if (options.granted) return admitted;
  const hooked = policy.onPermissionRequest
    ? await raceWithAbort(
        Promise.resolve().then(() => policy.onPermissionRequest!(finalCall, verdict, signal)),
        signal,
        cancelled,
      )
    : undefined;
  if (hooked?.decision === "allow") return admitted;
  if (hooked?.decision === "deny") throw policyRefusal(tool, { reason: hooked.reason ?? verdict.reason, rule: verdict.rule, layer: "hook" });
  const onAsk = options.approval?.onAsk;
  if (!onAsk) {
    throw new ToolError(
      "permission_denied",
      `${tool.name} needs the user's approval${verdict.rule === undefined ? "" : ` (rule ${JSON.stringify(verdict.rule)})`}, and this host cannot ask for it; the call was refused. Do not retry it; choose another approach or ask the user.`,
      {
        recoverable: false,
        details: { ...(verdict.rule === undefined ? {} : { rule: verdict.rule }), ...(verdict.layer === undefined ? {} : { layer: verdict.layer }) },
      },
    );
  }
  const answer: unknown = await raceWithAbort(
    Promise.resolve().then(() =>
      onAsk({
        callId: call.callId,
        toolName: tool.name,
        arguments: finalCall.input as Record<string, unknown>,
        metadata: finalCall.metadata,
        signal,
        ...(verdict.decision === "defer" ? { deferred: true } : {}),
        ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
        ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      }),
    ),
    signal,
    cancelled,
  );
  if (answer === true || answer === "allow") {
    await options.onApproved?.();
    return admitted;
  }
  throw new ToolError(
    "permission_denied",
    `The user declined this ${tool.name} call. Do not retry it; ask the user how to proceed or take a different approach.`,
    { recoverable: false },
  );
}

/**
 * Lets the policy's PostToolUse / PostToolUseFailure hooks see the result
 * and replace it or add context; the admission's own context is added too.
 * A policy that fails here leaves the result as it was.
 */
export async function settleByPolicy(
  policy: ToolCallPolicy,
  admission: PolicyAdmission | undefined,
  result: ToolResult,
  signal: AbortSignal,
): Promise<ToolResult> {
  let settled = result;
  const contexts: string[] = [];
  if (admission?.additionalContext) contexts.push(admission.additionalContext);
  if (admission !== undefined && policy.afterCall) {
    try {
      const after = await policy.afterCall(admission.call, result, signal);
      if (after.result !== undefined) settled = after.result;
      if (after.additionalContext) contexts.push(after.additionalContext);
    } catch {
      // The policy reports its own hook failures; a throw here must not lose the tool's result.
    }
  }
  if (contexts.length === 0) return settled;
  const block: ToolContent = { type: "text", text: `\n\n<hook-context>\n${contexts.join("\n")}\n</hook-context>` };
  return { ...settled, content: [...settled.content, block] };
}

/**
 * Asks the rules again, right before the tool runs, after every wait since
 * the decision (the user's answer, a run slot): a path whose link was
 * swapped meanwhile, or a rule that now denies, refuses the call. Only a
 * deny counts here (an ask was already answered); hooks do not run again.
 */
export async function recheckByPolicy(
  tool: ToolDefinition,
  admission: PolicyAdmission,
  options: Pick<AdmitOptions, "policy" | "signal" | "cancelled">,
): Promise<void> {
  const { policy, signal, cancelled } = options;
  const verdict = await raceWithAbort(
    Promise.resolve().then(() => policy.explain(admission.call, { runHooks: false, signal })),
    signal,
    cancelled,
  );
  if (verdict.decision === "deny") throw policyRefusal(tool, verdict);
}
