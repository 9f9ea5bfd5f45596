/**
 * `@agent-tools/core/git`: the types of the `GitClient` port's methods (its
 * options, status entries, worktrees and worktree snapshots). The port
 * itself (`GitClient`) and its error (`GitClientError`) stay in the main
 * entry; an adapter or a host that implements the port imports these.
 *
 * @packageDocumentation
 */
export type {
  GitAuthor,
  GitClient,
  GitOptions,
  GitStatusEntry,
  GitWorktree,
  GitWorktreeChange,
  GitWorktreeExclusion,
  GitWorktreeExclusionReason,
  GitWorktreeSnapshot,
} from "../ports/git-client.js";
export { GitClientError } from "./git-client-error.js";
