/**
 * The calls and answers of ApplyPatch when the OpenAI Responses API offers
 * it as a custom tool (`custom_tool_call` with the patch text as `input`)
 * or as its built-in `apply_patch` tool (`apply_patch_call` with one file
 * operation): each call becomes an ordinary {@link ToolCall} of ApplyPatch,
 * run by `registry.executeToolCall` like any other, and its result goes back
 * as the item the API expects.
 */
import { SdkError, ToolError } from "../errors.js";
import { type ResponsesApplyPatchOperation, applyPatchOperationToV4A } from "../patch/responses-apply-patch.js";
import { errorResult } from "../registry/result-error.js";
import type { ExecuteToolCallOptions } from "../registry/execute-tool-call.js";
import type { ToolRegistry } from "../registry/tool-registry.js";
import { toolResultText } from "../tool-result-text.js";
import type { ToolCall, ToolResult } from "../types.js";

/** The name of the ApplyPatch tool of `@agent-tools/tools-fs`, which the custom and built-in forms stand for. */
export const APPLY_PATCH_TOOL_NAME = "ApplyPatch";

/** The fields read from a `custom_tool_call` output item (the `openai` package's `ResponseCustomToolCall`). */
export interface ResponsesCustomToolCallItem {
  readonly call_id: string;
  readonly name: string;
  /** The text the model wrote: for ApplyPatch, the whole patch. */
  readonly input: string;
}

/** The fields read from an `apply_patch_call` output item (the `openai` package's `ResponseApplyPatchToolCall`). */
export interface ResponsesApplyPatchCallItem {
  readonly call_id: string;
  readonly operation: ResponsesApplyPatchOperation;
}

/** The `apply_patch_call_output` input item that answers an `apply_patch_call`. */
export interface ResponsesApplyPatchCallOutput {
  type: "apply_patch_call_output";
  call_id: string;
  /** `failed` when the result is an error (nothing was written). */
  status: "completed" | "failed";
  /** The result's text, as the model would see it from a function tool. */
  output: string;
}

/** The `custom_tool_call_output` input item that answers a `custom_tool_call`. */
export interface ResponsesCustomToolCallOutput {
  type: "custom_tool_call_output";
  call_id: string;
  output: string;
}

/**
 * The ApplyPatch {@link ToolCall} of a `custom_tool_call` item of the tool
 * `toOpenAIResponsesTools(registry, { applyPatch: "custom" })` offered: the
 * model's raw text becomes the `patch` argument. Throws
 * `SdkError("invalid_tool_call")` for a custom call of another tool.
 *
 * @example
 * for (const item of response.output) {
 *   if (item.type !== "custom_tool_call") continue;
 *   const result = await registry.executeToolCall(fromResponsesCustomToolCall(item));
 *   input.push(toResponsesCustomToolOutput(item.call_id, result));
 * }
 */
export function fromResponsesCustomToolCall(item: ResponsesCustomToolCallItem): ToolCall {
  if (item.name !== APPLY_PATCH_TOOL_NAME) {
    throw new SdkError(
      "invalid_tool_call",
      `fromResponsesCustomToolCall maps the ${APPLY_PATCH_TOOL_NAME} custom tool's calls; this call is for ${JSON.stringify(item.name)}.`,
      { toolName: item.name },
    );
  }
  return { id: item.call_id, name: APPLY_PATCH_TOOL_NAME, arguments: { patch: item.input } };
}

/**
 * The ApplyPatch {@link ToolCall} of an `apply_patch_call` item (the
 * built-in tool `toOpenAIResponsesTools(registry, { applyPatch: "builtin" })`
 * offered): its one operation as a whole V4A patch
 * ({@link applyPatchOperationToV4A}). Throws that function's
 * `ToolError("invalid_arguments")` for an operation no patch expresses;
 * {@link executeResponsesApplyPatchCall} answers it as a failed call instead.
 *
 * @example
 * const call = fromResponsesApplyPatchCall(item); // { id: item.call_id, name: "ApplyPatch", arguments: { patch } }
 * const output = toResponsesApplyPatchOutput(item.call_id, await registry.executeToolCall(call));
 */
export function fromResponsesApplyPatchCall(item: ResponsesApplyPatchCallItem): ToolCall {
  return { id: item.call_id, name: APPLY_PATCH_TOOL_NAME, arguments: { patch: applyPatchOperationToV4A(item.operation) } };
}

/**
 * The `apply_patch_call_output` item for a result of ApplyPatch: `failed`
 * when `result.isError`, else `completed`, with the result's text as
 * `output`.
 *
 * @example
 * input.push(toResponsesApplyPatchOutput(item.call_id, result));
 */
export function toResponsesApplyPatchOutput(callId: string, result: Pick<ToolResult, "content" | "isError">): ResponsesApplyPatchCallOutput {
  return { type: "apply_patch_call_output", call_id: callId, status: result.isError ? "failed" : "completed", output: toolResultText(result) };
}

/**
 * The `custom_tool_call_output` item for the result of a custom tool's call
 * (an answer to a `custom_tool_call` goes back as this, not as
 * `function_call_output`).
 *
 * @example
 * input.push(toResponsesCustomToolOutput(item.call_id, result));
 */
export function toResponsesCustomToolOutput(callId: string, result: Pick<ToolResult, "content">): ResponsesCustomToolCallOutput {
  return { type: "custom_tool_call_output", call_id: callId, output: toolResultText(result) };
}

/**
 * Runs an `apply_patch_call` through the registry's ApplyPatch tool and
 * returns the item that answers it, with the registry's result (for UIs:
 * `details` holds the files and the diff). An operation no patch expresses
 * is answered `failed` with what to send instead, without reaching the
 * registry.
 *
 * @example
 * for (const item of response.output) {
 *   if (item.type !== "apply_patch_call") continue;
 *   const { output } = await executeResponsesApplyPatchCall(registry, item);
 *   input.push(output);
 * }
 */
export async function executeResponsesApplyPatchCall(
  registry: Pick<ToolRegistry, "executeToolCall">,
  item: ResponsesApplyPatchCallItem,
  options?: ExecuteToolCallOptions,
): Promise<{ output: ResponsesApplyPatchCallOutput; result: ToolResult }> {
  let call: ToolCall;
  try {
    call = fromResponsesApplyPatchCall(item);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const result = errorResult(error.message, error.details, { code: error.code, recoverable: error.recoverable });
    return { output: toResponsesApplyPatchOutput(item.call_id, result), result };
  }
  const result = await registry.executeToolCall(call, options);
  return { output: toResponsesApplyPatchOutput(item.call_id, result), result };
}
