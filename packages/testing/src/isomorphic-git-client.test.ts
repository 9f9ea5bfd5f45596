import { runGitClientContract } from "./git-client-contract.js";
import { IsomorphicGitClient } from "@agent-tools/git";

runGitClientContract({ name: "IsomorphicGitClient", create: () => new IsomorphicGitClient(), supportsWorktrees: false, supportsLocalClone: false });
