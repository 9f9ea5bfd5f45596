/**
 * GitClient: the git operations the SDK needs (subagent worktrees, status,
 * binary-safe diffs, patch application, commits).
 *
 * Contract of every adapter:
 * - Every path argument is absolute; `repo` is any directory inside a work
 *   tree (the main one or a linked worktree).
 * - Failures reject with a `GitClientError` (from `@agent-tools/core`) whose
 *   `code` says what failed and whose `data.paths` names the files involved.
 *   An operation an adapter cannot do at all rejects with
 *   `SdkError("unsupported")`, documented on the adapter.
 * - When `signal` aborts, the operation stops and the promise rejects with
 *   an error whose `name` is `AbortError`.
 * - `diff` and `apply` work on the work tree only: the index (staging area)
 *   is never changed by them, so a host's own staged changes survive.
 * - `snapshotWorktree` trusts nothing inside the worktree it reads (see its
 *   documentation): it is how a host reads a work tree someone else wrote.
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
  /** The HEAD commit id (40 hex digits), or null in a repository without commits. */
  head: string | null;
}

/** One changed path of {@link GitClient.status}. */
export interface GitStatusEntry {
  /** Repository-relative path with `/` separators. */
  path: string;
  /** Index (staged) state letter as in porcelain v1 (`M`, `A`, `D`, ` `), `?` for untracked. */
  index: string;
  /** Work-tree state letter as in porcelain v1 (`M`, `D`, ` `), `?` for untracked. */
  workTree: string;
}

/** One changed path of a {@link GitWorktreeSnapshot}, as `git diff --raw` reports it. */
export interface GitWorktreeChange {
  /** Repository-relative, `/` separators. */
  readonly path: string;
  /** Octal mode before (`000000` when added): `100644`, `100755`, `120000` (symlink), `160000` (submodule). */
  readonly oldMode: string;
  /** Octal mode after (`000000` when deleted). */
  readonly newMode: string;
  /** The new target of a symbolic link (`newMode` `120000`), as the patch writes it. */
  readonly linkTarget?: string;
}

/** Why a path was left out of a {@link GitWorktreeSnapshot}. */
export type GitWorktreeExclusionReason = "special_file" | "invalid_path" | "submodule";

/** A path of the worktree left out of a snapshot's patch (a caller applying the snapshot must refuse it). */
export interface GitWorktreeExclusion {
  /** Repository-relative, `/` separators. */
  readonly path: string;
  /** `special_file` (a fifo, socket or device), `invalid_path` (a name git refuses or that is not UTF-8), `submodule` (one the worktree's writer populated). */
  readonly reason: GitWorktreeExclusionReason;
  /** What was found (git's message, or what the path holds). */
  readonly detail: string;
}

/** What {@link GitClient.snapshotWorktree} read: a worktree's changes against a commit. */
export interface GitWorktreeSnapshot {
  /** The patch in the format of {@link GitClient.diff} (`--binary`, full blob ids), repository-relative paths. */
  readonly patch: string;
  /** Each changed path with its modes, sorted by path. */
  readonly changes: readonly GitWorktreeChange[];
  /** Paths the snapshot left out. */
  readonly excluded: readonly GitWorktreeExclusion[];
}

/** A commit author. */
export interface GitAuthor {
  name: string;
  email: string;
}

/** The git operations the SDK uses. All paths are absolute. */
export interface GitClient {
  /** The top level of the work tree containing `cwd`, or null when not in a repository. */
  repositoryRoot(cwd: string, options?: GitOptions): Promise<string | null>;
  /** Adds a linked worktree at `path` on a new branch `branch` starting at `startPoint` (default HEAD). */
  addWorktree(repo: string, options: { path: string; branch: string; startPoint?: string } & GitOptions): Promise<void>;
  /** Removes a linked worktree and its directory (also with local changes when `force`). */
  removeWorktree(repo: string, options: { path: string; force?: boolean } & GitOptions): Promise<void>;
  /**
   * Forgets the records of linked worktrees whose directory no longer
   * exists (`git worktree prune`); worktrees still on disk are kept.
   */
  pruneWorktrees(repo: string, options?: GitOptions): Promise<void>;
  /**
   * Deletes the local branch `branch` (also when it is not merged anywhere);
   * resolves without doing anything when there is no such branch. Rejects
   * with code `command_failed` when git refuses (e.g. the branch is checked
   * out in a worktree).
   */
  deleteBranch(repo: string, options: { branch: string } & GitOptions): Promise<void>;
  /**
   * The changes of the linked worktree `worktree` of the repository holding
   * `repo` against the commit `base` (a full commit id; default the HEAD
   * its git directory in the repository records), tracked and untracked,
   * ignored files left out, without trusting anything inside the worktree:
   * - git finds nothing there by discovery: the worktree's `.git` file, its
   *   `.gitattributes` drivers (filter, diff, merge, textconv), nested `.git`
   *   entries (submodules are never entered; a populated one is `excluded`)
   *   and the host's repository-locating `GIT_*` variables are all ignored;
   * - no hook, fsmonitor or system/global configuration runs or is read; the
   *   repository's own index, objects and refs are not changed;
   * - at most `maxBytes` (default 64 MiB) of changed files and of patch are
   *   read: more rejects with code `too_large` before git holds it whole.
   *
   * Paths git cannot take (special files, names it refuses) are left out and
   * listed in `excluded`. Other failures (the worktree is gone, `repo` is
   * not a repository, git fails) reject with a `GitClientError`.
   */
  snapshotWorktree(repo: string, options: { worktree: string; base?: string; maxBytes?: number } & GitOptions): Promise<GitWorktreeSnapshot>;
  /** Lists worktrees, the main one first. */
  listWorktrees(repo: string, options?: GitOptions): Promise<GitWorktree[]>;
  /**
   * Changed and untracked paths (untracked directories expanded to files,
   * ignored files left out, no rename detection), sorted by path.
   */
  status(repo: string, options?: GitOptions): Promise<GitStatusEntry[]>;
  /**
   * A patch of the work tree, including untracked (not ignored) files,
   * against `base` (default HEAD; the empty tree in a repository without
   * commits), in `git diff --binary` format: binary files as `GIT binary
   * patch` literals with full blob ids, so `apply` restores them byte for
   * byte. Empty string when nothing changed. Paths are relative to the top
   * level.
   */
  diff(repo: string, options?: { base?: string } & GitOptions): Promise<string>;
  /**
   * Applies a patch from `diff` to the work tree. All or nothing: when a hunk
   * does not apply, nothing is written and it rejects with code
   * `patch_failed`. With `threeWay`, hunks that do not apply are merged with
   * the patch's base blobs (which must exist in this repository); when that
   * conflicts, the files are left with conflict markers and it rejects with
   * code `conflict` naming them.
   */
  apply(repo: string, patch: string, options?: { threeWay?: boolean } & GitOptions): Promise<void>;
  /**
   * Stages everything (untracked files too, ignored ones not) and commits;
   * returns the new commit id. `author` defaults to the repository's
   * configured user. Rejects with code `nothing_to_commit` when nothing
   * changed.
   */
  commit(repo: string, options: { message: string; author?: GitAuthor } & GitOptions): Promise<string>;
  /**
   * Clones `url` (an http(s), ssh or `file://` URL, or a local repository
   * path) into `path`, which must not exist or be an empty directory, and
   * checks out `ref` (a branch, a tag or a commit id; default the remote's
   * HEAD). `depth` asks for a shallow clone where the transport allows it.
   * Git never prompts for credentials: a repository that needs them rejects
   * with code `command_failed`. Used to install skills from a repository.
   */
  clone(url: string, path: string, options?: { ref?: string; depth?: number } & GitOptions): Promise<void>;
}
