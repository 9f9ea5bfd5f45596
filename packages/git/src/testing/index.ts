/**
 * @agent-tools/git/testing: the GitClient contract suite
 * (`runGitClientContract`, on vitest, an optional peer) for hosts to run on
 * their own client, and the throwaway repositories its tests use.
 *
 * @example
 * import { runGitClientContract } from "@agent-tools/git/testing";
 * runGitClientContract({ name: "my git", create: () => new MyGitClient() });
 *
 * @packageDocumentation
 */
export { runGitClientContract } from "./git-client-contract.js";
export type { GitClientContractTarget } from "./git-client-contract.js";
export { createGitTestRepository, cloneGitTestRepository, runTestGit, TEST_AUTHOR } from "./git-test-repository.js";
export type { GitTestRepository } from "./git-test-repository.js";
