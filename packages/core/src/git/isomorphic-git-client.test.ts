import { runGitClientContract } from "../testing/git.js";
import { IsomorphicGitClient } from "./isomorphic/isomorphic-git-client.js";

runGitClientContract({ name: "IsomorphicGitClient", create: () => new IsomorphicGitClient(), supportsWorktrees: false });
