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
  isProcessAlive,
  readProcessInfo,
  readProcessTreeTag,
} from "./process-tree.js";
export { killProcessTree } from "./process-tree-killer.js";
export { BubblewrapSandbox } from "./sandbox/bubblewrap-sandbox.js";
export { checkSandboxSettings } from "./sandbox/check-sandbox-settings.js";
export { probeBubblewrapSandbox } from "./sandbox/probe-bubblewrap-sandbox.js";
export {
  defaultHiddenPaths,
  resolveSandboxPolicy,
} from "./sandbox/sandbox-policy.js";
