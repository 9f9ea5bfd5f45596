/**
 * After a call: PostToolUse hooks (or PostToolUseFailure for an error
 * result) may replace the text the model reads (`updatedToolOutput`, the
 * first by declaration order), block (`decision: "block"` or exit 2: the
 * result keeps its content and the model also reads the hook's reason) and
 * add context. Their failures are logged and otherwise ignored.
 */
import type { ToolContent, ToolResult } from "@agent-tools/core";
import type { PolicyAfterCall, PolicyCall } from "@agent-tools/core/policy";
import { toolResultText } from "@agent-tools/core";
import { dispatchHooks } from "../hooks/dispatch-hooks.js";
import { mergePostToolUse } from "../hooks/merge-hook-results.js";
import { type PolicyState, hookContextOf, toolHookInput } from "./policy-state.js";

const NO_CHANGES: PolicyAfterCall = Object.freeze({ hooks: Object.freeze([]) });

/** Runs the Post hooks of a finished call. Never rejects. */
export async function settleAfterCall(state: PolicyState, call: PolicyCall, result: ToolResult, signal: AbortSignal): Promise<PolicyAfterCall> {
  const event = result.isError ? "PostToolUseFailure" : "PostToolUse";
  if (!state.hookedEvents.has(event)) return NO_CHANGES;
  const extra = result.isError
    ? { error: result.error?.message ?? toolResultText(result) }
    : { tool_response: { content: result.content, details: result.details, isError: result.isError } };
  const merged = mergePostToolUse(
    await dispatchHooks(state.hooks, event, call.toolName, { input: toolHookInput(state, event, call, extra), context: hookContextOf(state, signal) }),
    event,
  );
  const logger = state.environment.logger;
  for (const failure of merged.failures) {
    logger.warn(`The ${event} hook "${failure.hook}" failed (${failure.error}); it is ignored.`, {
      event,
      hook: failure.hook,
      error: failure.error,
      callId: call.callId,
    });
  }
  for (const hook of merged.ignoredReplacements) {
    logger.warn(`The ${event} hook "${hook}" replaced the output after an earlier hook did; the first replacement is used.`, {
      event,
      hook,
      callId: call.callId,
    });
  }
  let replaced: ToolResult | undefined;
  if (merged.updatedToolOutput !== undefined) replaced = { ...result, content: [{ type: "text", text: merged.updatedToolOutput }] };
  if (merged.blocks.length > 0) {
    const base = replaced ?? result;
    const block: ToolContent = { type: "text", text: `\n\n${merged.blocks.join("\n")}` };
    replaced = { ...base, content: [...base.content, block] };
  }
  return Object.freeze({
    ...(replaced === undefined ? {} : { result: replaced }),
    ...(merged.additionalContext === undefined ? {} : { additionalContext: merged.additionalContext }),
    hooks: merged.answers,
  });
}
