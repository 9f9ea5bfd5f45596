/**
 * @agent-tools/node: the Node adapter of the ProcessRunner port
 * (`ExecaProcessRunner`: own process group, tree kill, a watchdog that ends
 * the trees when the host exits), of the ProgramRunner port (`NodeProgramRunner`:
 * helper programs such as ripgrep), and the bubblewrap command sandbox
 * (`probeBubblewrapSandbox`, `BubblewrapSandbox`), and the Workspace port over
 * the local disk (`createLocalWorkspace`). The process-tree helpers and
 * the sandbox policy resolution the workspace packages share are at
 * `@agent-tools/node/internal` (no semver promise).
 *
 * @packageDocumentation
 */
export { ExecaProcessRunner } from "./execa-process-runner.js";
export { NodeProgramRunner } from "./node-program-runner.js";
export { BubblewrapSandbox } from "./sandbox/bubblewrap-sandbox.js";
export { probeBubblewrapSandbox } from "./sandbox/probe-bubblewrap-sandbox.js";
export { createLocalWorkspace } from "./workspace/local-workspace.js";
export type { LocalWorkspaceOptions } from "./workspace/local-workspace.js";
