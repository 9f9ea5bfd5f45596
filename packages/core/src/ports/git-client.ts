/**
 * GitClient: the git operations the SDK needs (subagent worktrees, status,
 * binary-safe diffs, patch application, commits).
 */

/** Common options of every GitClient method. */
export interface GitOptions {
  /** Aborts the operation. */
  signal?: AbortSignal;
}

/** One entry of `git worktree list`. */
export interface GitWorktree {
  /** Absolute path of the worktree. */
  path: string;
  /** The checked-out branch without `refs/heads/`, or null when detached. */
  branch: string | null;
  /** The HEAD commit id. */
  head: string;
}

/** One changed path of {@link GitClient.status}. */
export interface GitStatusEntry {
  path: string;
  /** Index (staged) state letter as in porcelain v1, `?` for untracked, ` ` for none. */
  index: string;
  /** Work-tree state letter as in porcelain v1. */
  workTree: string;
}

/** The git operations the SDK uses. All paths are absolute. */
export interface GitClient {
  /** The top level of the repository containing `cwd`, or null when not in a repository. */
  repositoryRoot(cwd: string, options?: GitOptions): Promise<string | null>;
  /** Adds a worktree at `path` on a new branch `branch` starting at `startPoint` (default HEAD). */
  addWorktree(repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void>;
  /** Removes a worktree (forcefully when `force`). */
  removeWorktree(repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void>;
  /** Lists worktrees, the main one first. */
  listWorktrees(repo: string, options?: GitOptions): Promise<GitWorktree[]>;
  /** Changed and untracked paths (untracked directories expanded to files), sorted by path. */
  status(repo: string, options?: GitOptions): Promise<GitStatusEntry[]>;
  /**
   * A binary-safe patch (`git diff --binary`) of the work tree including
   * untracked files against `base` (default HEAD). Empty string when nothing changed.
   */
  diff(repo: string, options?: { base?: string } & GitOptions): Promise<string>;
  /** Applies a patch; `threeWay` falls back to a 3-way merge. Throws with the conflicting paths on failure. */
  apply(repo: string, patch: string, options?: { threeWay?: boolean } & GitOptions): Promise<void>;
  /** Stages everything and commits; returns the new commit id. */
  commit(repo: string, options: { message: string; author?: { name: string; email: string } } & GitOptions): Promise<string>;
}
