/**
 * @agent-tools/git: adapters of the GitClient port. `GitCliClient` runs the
 * git binary (through a ProcessRunner, or execa); `IsomorphicGitClient` works
 * without one and loads its optional peers (isomorphic-git, diff, diff3) on
 * first use; `createDefaultGitClient` picks between them.
 *
 * @packageDocumentation
 */
export { GitCliClient } from "./git-cli-client.js";
export type { GitCliClientOptions } from "./git-cli-client.js";
export { IsomorphicGitClient } from "./isomorphic/isomorphic-git-client.js";
export { createDefaultGitClient } from "./default-git-client.js";
