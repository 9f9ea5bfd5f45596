/**
 * @agent-tools/tools-fs: Read, Image, Write, Edit, Delete, List, Glob, Grep.
 *
 * @packageDocumentation
 */
export { createFsToolBundle } from "./fs-tool-bundle.js";
export type { FsToolBundleOptions } from "./fs-tool-bundle.js";
