/**
 * @agent-tools/tools-fs: Read, Image, Write, Edit, Delete, List, Glob, Grep.
 *
 * @packageDocumentation
 */
export { createFsToolBundle } from "./fs-tool-bundle.js";
export type { FsToolBundleOptions } from "./fs-tool-bundle.js";
export { FileToolState, sameVersion } from "./shared/file-state.js";
export type { FileVersion, FullTextSnapshot, LatestRead } from "./shared/file-state.js";
export { contentHash, ContentHasher } from "./shared/content-hash.js";
export { findEditMatches, applyEditMatches, replaceInText } from "./edit/edit-match.js";
export type { EditMatch, EditMatchResult, MatchStrategy } from "./edit/edit-match.js";
export { locateRipgrep } from "./search/ripgrep.js";
export { walkTree } from "./search/file-walker.js";
export type { WalkEntry, WalkOptions } from "./search/file-walker.js";
export { readInputSchema } from "./read/read-tool.js";
export type { ReadDetails, ReadPathDetails } from "./read/read-tool.js";
export { writeInputSchema } from "./write/write-tool.js";
export type { WriteDetails } from "./write/write-tool.js";
export { editInputSchema } from "./edit/edit-tool.js";
export type { EditDetails } from "./edit/edit-tool.js";
export { deleteInputSchema } from "./delete/delete-tool.js";
export type { DeleteDetails } from "./delete/delete-tool.js";
export { listInputSchema } from "./search/list-tool.js";
export type { ListDetails } from "./search/list-tool.js";
export { globInputSchema } from "./search/glob-tool.js";
export type { GlobDetails } from "./search/glob-tool.js";
export { grepInputSchema } from "./search/grep-tool.js";
export type { GrepDetails } from "./search/grep-tool.js";
export type { GlobProgress, GrepProgress } from "./search/search-progress.js";
export { imageInputSchema } from "./image/image-tool.js";
export type { ImageDetails, DisplayedImage } from "./image/image-tool.js";
export { fsTools } from "./fs-tools-plugin.js";
