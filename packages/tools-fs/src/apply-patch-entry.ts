/**
 * `@agent-tools/tools-fs/apply-patch`: the types of ApplyPatch's answer.
 * The tool itself comes with the fs bundle (`createFsToolBundle`); its
 * `details` are {@link ApplyPatchDetails}: every file the patch touched, how
 * each hunk was located, and a unified diff.
 *
 * @packageDocumentation
 */
export type { ApplyPatchDetails } from "./apply-patch/apply-patch-result.js";
