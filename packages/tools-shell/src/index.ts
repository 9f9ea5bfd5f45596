/**
 * @agent-tools/tools-shell: Bash (synchronous and resumable), ProcessWait, ProcessStop, ManagedProcess.
 *
 * @packageDocumentation
 */
export { createShellToolBundle } from "./shell-tool-bundle.js";
export type { ShellToolBundle, ShellToolBundleOptions } from "./shell-tool-bundle.js";
export type { CommandPolicy } from "./command-guards.js";
export type { ShellSessionResponse } from "./session-response.js";
export type { ShellSyncDetails } from "./bash-sync-tool.js";
export type { ManagedProcessDetails } from "./managed-process-tool.js";
export { shellTools } from "./shell-tools-plugin.js";
