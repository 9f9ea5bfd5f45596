// Testing exports of the git area: list each export by name.
export { runGitClientContract } from "../git/testing/git-client-contract.js";
export type { GitClientContractTarget } from "../git/testing/git-client-contract.js";
export { createGitTestRepository, cloneGitTestRepository, TEST_AUTHOR } from "../git/testing/git-test-repository.js";
export type { GitTestRepository } from "../git/testing/git-test-repository.js";
