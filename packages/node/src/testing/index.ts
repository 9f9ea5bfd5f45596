/**
 * @agent-tools/node/testing: the ProcessRunner contract suite
 * (`runProcessRunnerContract`, on vitest, an optional peer) for hosts to run
 * on their own runner, the process-tree helpers of its tests, and the
 * Workspace contract suite (`runWorkspaceContract`) every workspace adapter
 * passes.
 *
 * @example
 * import { runProcessRunnerContract } from "@agent-tools/node/testing";
 * runProcessRunnerContract("my runner", () => new MyProcessRunner());
 *
 * @packageDocumentation
 */
export {
  PROCESS_RUNNER_CONTRACT_COMMANDS,
  runProcessRunnerContract,
  processRunnerContractScript,
  processTreeScript,
  waitForPidFiles,
} from "./process-runner-contract.js";
export type { ProcessRunnerContractOptions } from "./process-runner-contract.js";
export { STDIN_CONTRACT_COMMANDS, runProcessRunnerStdinContract, stdinContractScript } from "./process-runner-stdin-contract.js";
export type { ProcessRunnerStdinContractOptions } from "./process-runner-stdin-contract.js";
export { runWorkspaceContract } from "./workspace-contract.js";
export type { WorkspaceContractFixture, WorkspaceContractOptions, WorkspaceContractTarget } from "./workspace-contract.js";
