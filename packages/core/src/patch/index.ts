/**
 * `@agent-tools/core/patch`: the V4A patch format (`*** Begin Patch` ...
 * `*** End Patch`) that GPT-5 and Codex models edit with. The parser, the
 * paths a patch touches (for permission rules), the Lark grammar a provider
 * constrains the model with, and the mapping of the OpenAI Responses API's
 * built-in `apply_patch` operations to patch text. The ApplyPatch tool of
 * `@agent-tools/tools-fs` applies a parsed patch.
 *
 * @packageDocumentation
 */
export type { ParsedPatch, PatchAddFile, PatchDeleteFile, PatchHunk, PatchLine, PatchOperation, PatchTarget, PatchUpdateFile } from "./patch-types.js";
export { parseV4APatch, patchTargetsOf } from "./parse-v4a.js";
export type { ParseV4APatchOptions } from "./parse-v4a.js";
export { V4A_LARK_GRAMMAR } from "./lark-grammar.js";
export { applyPatchOperationToV4A } from "./responses-apply-patch.js";
export type { ResponsesApplyPatchOperation } from "./responses-apply-patch.js";
export {
  APPLY_PATCH_TOOL_NAME,
  executeResponsesApplyPatchCall,
  fromResponsesApplyPatchCall,
  fromResponsesCustomToolCall,
  toResponsesApplyPatchOutput,
  toResponsesCustomToolOutput,
} from "../providers/openai-responses-apply-patch.js";
export type {
  ResponsesApplyPatchCallItem,
  ResponsesApplyPatchCallOutput,
  ResponsesCustomToolCallItem,
  ResponsesCustomToolCallOutput,
} from "../providers/openai-responses-apply-patch.js";
export type {
  OpenAIResponsesApplyPatchForm,
  OpenAIResponsesApplyPatchTool,
  OpenAIResponsesCustomTool,
  OpenAIResponsesToolOf,
  OpenAIResponsesToolsOptions,
} from "../providers/openai-responses-tools.js";
