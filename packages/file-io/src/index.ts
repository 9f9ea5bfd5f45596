/**
 * `@agent-tools/file-io/internal`: the descriptor-anchored, no-follow file layer the
 * tool packages share. Directories held open by descriptor
 * ({@link anchorDirectory}), atomic temporary-file-and-rename writes
 * ({@link writeFileAtomic}), a cross-process lock per file
 * ({@link acquireFileLock}) and a contained tree under a held root
 * ({@link openContainedTree}). Write, Edit and Delete of tools-fs, memory
 * entries, subagent applies, checkpoint rewinds and skill installs all write
 * through it. No tools, no registry: it depends on core only for ToolError.
 * Its one entry is `/internal`: the agent-tools packages share it, with no
 * semver promise to hosts.
 *
 * @packageDocumentation
 */
export { anchorChild, anchorDirectory, DirectoryMovedError } from "./anchored-directory.js";
export type { AnchoredDirectory } from "./anchored-directory.js";
export { prepareTemporary, writeFileAtomic } from "./atomic-write.js";
export type { PreparedTemporary } from "./atomic-write.js";
export { acquireFileLock } from "./file-lock.js";
export type { FileLock, FileLockOptions } from "./file-lock.js";
export { openContainedTree, symlinkStaysInside } from "./contained-tree.js";
export type { ContainedTree } from "./contained-tree.js";
export { isToolSidecarName, temporaryName } from "./sidecar-names.js";
