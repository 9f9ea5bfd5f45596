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
