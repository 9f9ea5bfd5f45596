/**
 * @agent-tools/testing: the contract suites of every port and store, named
 * `run<Port>Contract`, for hosts to run on their own adapters. They import
 * vitest (an optional peer); nothing else published here does.
 *
 * @example
 * import { runGitClientContract } from "@agent-tools/testing";
 * runGitClientContract({ name: "my git", create: () => new MyGitClient() });
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
export { runGitClientContract } from "./git-client-contract.js";
export type { GitClientContractTarget } from "./git-client-contract.js";
export { createGitTestRepository, cloneGitTestRepository, runTestGit, TEST_AUTHOR } from "./git-test-repository.js";
export type { GitTestRepository } from "./git-test-repository.js";
export { runModelClientContract } from "./model-client-contract.js";
export type { ModelClientContractTarget, ModelContractTurn, ModelContractInstance } from "./model-client-contract.js";
export { runStorageContract, usePostgresTestCluster } from "./storage-contract.js";
export type { StorageContractTarget } from "./storage-contract.js";
export { runTaskStateStoreContract } from "./task-state-store-contract.js";
export type { TaskStateStoreContractTarget } from "./task-state-store-contract.js";
