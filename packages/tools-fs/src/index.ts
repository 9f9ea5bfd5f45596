/**
 * @agent-tools/tools-fs: Read, Image, Write, Edit, ApplyPatch, NotebookEdit, Delete, List, Glob, Grep.
 *
 * @packageDocumentation
 */
export { createFsToolBundle } from "./fs-tool-bundle.js";
export type { FsToolBundleOptions } from "./fs-tool-bundle.js";
export type { ReadDetails } from "./read/read-tool.js";
export type { WriteDetails } from "./write/write-tool.js";
export type { EditDetails } from "./edit/edit-tool.js";
export type { DeleteDetails } from "./delete/delete-tool.js";
export type { ListDetails } from "./search/list-tool.js";
export type { GlobDetails } from "./search/glob-tool.js";
export type { GrepDetails } from "./search/grep-tool.js";
export type { ImageDetails } from "./image/image-tool.js";
export { fsTools } from "./fs-tools-plugin.js";
