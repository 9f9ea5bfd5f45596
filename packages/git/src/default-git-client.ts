import { accessSync, constants } from "node:fs";
import path from "node:path";
import type { GitClient } from "@agent-tools/core";
import type { ProcessRunner } from "@agent-tools/core";
import { GitCliClient } from "./git-cli-client.js";
import { IsomorphicGitClient } from "./isomorphic/isomorphic-git-client.js";

/** True when an executable named `name` is on PATH. */
export function hasExecutableOnPath(name: string, searchPath = process.env.PATH ?? ""): boolean {
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === "") continue;
    try {
      accessSync(path.join(directory, name), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/**
 * The registry's default GitClient: the git CLI run through the registry's
 * process runner when a `git` binary is on PATH, otherwise isomorphic-git.
 */
export function createDefaultGitClient(processRunner: ProcessRunner): GitClient {
  return hasExecutableOnPath("git") ? new GitCliClient({ processRunner }) : new IsomorphicGitClient();
}
