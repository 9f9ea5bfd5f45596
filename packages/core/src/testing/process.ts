// Testing exports of the process area: list each export by name.
export { ScriptedProcessRunner } from "./scripted-process-runner.js";
export type { ProcessScript, ScriptedProcessController } from "./scripted-process-runner.js";
export {
  PROCESS_RUNNER_CONTRACT_COMMANDS,
  describeProcessRunnerContract,
  processRunnerContractScript,
  processTreeScript,
  waitForPidFiles,
} from "./process-runner-contract.js";
export type { ProcessRunnerContractOptions } from "./process-runner-contract.js";
