/**
 * @agent-tools/tools-shell: Bash (synchronous and resumable), ProcessWait, ProcessStop, ManagedProcess.
 *
 * @packageDocumentation
 */
export { createShellToolBundle } from "./shell-tool-bundle.js";
export type { ShellToolBundleOptions } from "./shell-tool-bundle.js";
