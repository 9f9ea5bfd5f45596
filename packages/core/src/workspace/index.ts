/**
 * `@agent-tools/core/workspace`: the Workspace port (files and processes of
 * the place where the tools work), its error, the containment check over any
 * adapter, and the in-memory adapter. The local adapter is
 * `createLocalWorkspace` of `@agent-tools/node`, the SSH one
 * `createSshWorkspace` of `@agent-tools/ssh`; the contract suite every
 * adapter passes is `runWorkspaceContract` of `@agent-tools/node/testing`.
 *
 * @packageDocumentation
 */
export type {
  Workspace,
  WorkspaceCapabilities,
  WorkspaceDirectoryEntry,
  WorkspaceEntryType,
  WorkspaceFileSystem,
  WorkspaceLock,
  WorkspaceLockOptions,
  WorkspaceReadRange,
  WorkspaceStats,
  WorkspaceWriteOptions,
} from "./workspace-port.js";
export { WorkspaceError, workspaceErrorFromErrno } from "./workspace-error.js";
export type { WorkspaceErrorCode, WorkspaceErrorDetails } from "./workspace-error.js";
export { canonicalizeInWorkspace, isWithinWorkspacePath, resolveInWorkspace } from "./resolve-in-workspace.js";
export type { WorkspaceCanonicalPath } from "./resolve-in-workspace.js";
export { createMemoryWorkspace } from "./memory-workspace.js";
export type { MemoryWorkspace, MemoryWorkspaceOptions } from "./memory-workspace.js";
export { createLexicalPathPolicy } from "../paths/lexical-path-policy.js";
export type { LexicalPathPolicyOptions } from "../paths/lexical-path-policy.js";
