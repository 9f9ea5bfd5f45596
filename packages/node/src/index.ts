/**
 * @agent-tools/node: the Node adapter of the ProcessRunner port
 * (`ExecaProcessRunner`: own process group, tree kill, a watchdog that ends
 * the trees when the host exits), of the ProgramRunner port (`NodeProgramRunner`:
 * helper programs such as ripgrep), the process-tree helpers, and the
 * bubblewrap command sandbox (`probeBubblewrapSandbox`, `BubblewrapSandbox`).
 *
 * @packageDocumentation
 */
export { ExecaProcessRunner } from "./execa-process-runner.js";
export { NodeProgramRunner } from "./node-program-runner.js";
export {
  PROCESS_TREE_TAG_VARIABLE,
  findProcessTree,
  findProcessTrees,
  isProcessAlive,
  isProcessGroupAlive,
  isProcessTreeAlive,
  processGroupMembers,
  readProcessInfo,
  readProcessTable,
  readProcessTreeTag,
} from "./process-tree.js";
export type { ProcessInfo, ProcessTreeSelector } from "./process-tree.js";
export { ProcessTreeKiller, killProcessTree } from "./process-tree-killer.js";
export {
  BUBBLEWRAP_ISOLATION_FLAGS,
  SANDBOX_PRIVATE_RUN,
  SANDBOX_PRIVATE_TMP,
  buildBubblewrapArguments,
  pathKind,
} from "./sandbox/bubblewrap-arguments.js";
export type { BubblewrapArgumentOptions } from "./sandbox/bubblewrap-arguments.js";
export { BubblewrapSandbox } from "./sandbox/bubblewrap-sandbox.js";
export type { BubblewrapSandboxOptions } from "./sandbox/bubblewrap-sandbox.js";
export { SANDBOX_SETTING_KEYS, checkSandboxSettings } from "./sandbox/check-sandbox-settings.js";
export { listHostUnixSockets } from "./sandbox/host-unix-sockets.js";
export { findBubblewrapOnPath, probeBubblewrapSandbox } from "./sandbox/probe-bubblewrap-sandbox.js";
export type { BubblewrapProbeOptions } from "./sandbox/probe-bubblewrap-sandbox.js";
export { DEFAULT_SANDBOX_ENVIRONMENT, checkSandboxEnvironment, confinedEnvironment } from "./sandbox/sandbox-environment.js";
export {
  DEFAULT_HIDDEN_HOME_DIRECTORIES,
  DEFAULT_HIDDEN_HOME_FILES,
  GIT_CONTROL_ENTRIES,
  defaultHiddenPaths,
  gitControlPaths,
  resolveSandboxPolicy,
} from "./sandbox/sandbox-policy.js";
export type { ResolveSandboxPolicyOptions } from "./sandbox/sandbox-policy.js";
