/**
 * @agent-tools/testing: the contract suites of every port and store, named
 * `run<Port>Contract`, in one import. Each lives at the `/testing` entry of
 * the package that owns the port's adapters (`@agent-tools/node/testing`,
 * `@agent-tools/git/testing`, `@agent-tools/models/testing`,
 * `@agent-tools/storage/testing`, `@agent-tools/tools-tasks/testing`); this
 * package only re-exports them. They import vitest (an optional peer).
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
} from "@agent-tools/node/testing";
export type { ProcessRunnerContractOptions } from "@agent-tools/node/testing";
export { runGitClientContract, createGitTestRepository, cloneGitTestRepository, runTestGit, TEST_AUTHOR } from "@agent-tools/git/testing";
export type { GitClientContractTarget, GitTestRepository } from "@agent-tools/git/testing";
export { runModelClientContract } from "@agent-tools/models/testing";
export type { ModelClientContractTarget, ModelContractTurn, ModelContractInstance } from "@agent-tools/models/testing";
export { runStorageContract, usePostgresTestCluster } from "@agent-tools/storage/testing";
export type { StorageContractTarget } from "@agent-tools/storage/testing";
export { runTaskStateStoreContract } from "@agent-tools/tools-tasks/testing";
export type { TaskStateStoreContractTarget } from "@agent-tools/tools-tasks/testing";
