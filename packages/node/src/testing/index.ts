/**
 * @agent-tools/node/testing: the ProcessRunner contract suite
 * (`runProcessRunnerContract`, on vitest, an optional peer) for hosts to run
 * on their own runner, and the process-tree helpers of its tests.
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
