/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The Edit matcher and the ripgrep locator, used by benchmarks and tests of
 * other packages. Hosts import from `@agent-tools/tools-fs`.
 *
 * @packageDocumentation
 */
export { findEditMatches } from "./edit/edit-match.js";
export { locateRipgrep } from "./search/ripgrep.js";
export { readInputSchema } from "./read/read-tool.js";
export { writeInputSchema } from "./write/write-tool.js";
export { editInputSchema } from "./edit/edit-tool.js";
export { applyPatchInputSchema } from "./apply-patch/apply-patch-tool.js";
export { notebookEditInputSchema } from "./notebook-edit/notebook-edit-tool.js";
export { deleteInputSchema } from "./delete/delete-tool.js";
export { listInputSchema } from "./search/list-tool.js";
export { globInputSchema } from "./search/glob-tool.js";
export { grepInputSchema } from "./search/grep-tool.js";
export { imageInputSchema } from "./image/image-tool.js";
export { applyPatchHunks } from "./patch/apply-patch-hunks.js";
export { PatchHunkError } from "./patch/patch-hunk-error.js";
export type { PatchCandidate, PatchHunkErrorDetails } from "./patch/patch-hunk-error.js";
export { formatUnifiedDiff } from "./patch/unified-diff.js";
export type { ApplyPatchHunksOptions, PatchMatchStrategy, PatchedFile, PatchedHunk } from "./patch/patch-match-types.js";
