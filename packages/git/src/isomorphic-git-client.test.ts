import { runGitClientContract } from "./testing/git-client-contract.js";
import { IsomorphicGitClient } from "./index.js";

runGitClientContract({ name: "IsomorphicGitClient", create: () => new IsomorphicGitClient(), supportsWorktrees: false, supportsLocalClone: false });
