/** A worktree provisioned for one worktree-mode run. */
export interface SubagentWorktree {
  /** Top level of the parent's repository. */
  readonly repositoryRoot: string;
  /** Absolute path of the linked worktree. */
  readonly path: string;
  /** Its branch (`agent-tools/subagent/<label>-<suffix>`). */
  readonly branch: string;
  /** The child's workdir: the worktree plus the parent workdir's offset inside its repository. */
  readonly workdir: string;
  /**
   * The commit (40 hex digits) the worktree started from: changes and applies
   * diff against it, so commits made inside the worktree still count.
   * Absent: the worktree's HEAD.
   */
  readonly baseCommit?: string;
}

/** What a worktree changed, against the commit it started from. */
export interface SubagentWorktreeChanges {
  /** Repository-relative paths, `/` separators, sorted. */
  readonly changedPaths: readonly string[];
  /** The binary diff, cut to `maxDiffChars` (then `diffTruncated`). */
  readonly diff: string;
  readonly diffTruncated: boolean;
  readonly diffChars: number;
}

/** How an apply went (fields as the report's details carry them). */
export interface SubagentApplyOutcome {
  readonly applyStatus: "applied" | "skipped" | "failed";
  readonly applyMethod?: "git_apply" | "git_apply_3way" | "file_copy_fallback";
  readonly skipReason?: "empty_patch" | "already_applied" | "fallback_noop";
  /** Why `git apply` (and the 3-way merge) did not take the patch, when the copy fallback ran. */
  readonly fallbackReason?: string;
  readonly copiedFiles: readonly string[];
  readonly deletedFiles: readonly string[];
  readonly conflictFiles: readonly string[];
  readonly error?: string;
}

/**
 * Records the parent's files an apply may touch, around the apply (the Agent
 * tool gives one that saves them in the call's file checkpoint, so a rewind
 * undoes the apply).
 */
export interface SubagentApplyRecorder {
  /**
   * Called once, before the apply changes anything, with the canonical
   * absolute path of every parent file it may touch (each path of the patch:
   * modified, created and deleted files). A rejection stops the apply: it
   * changes nothing and fails with the rejection's message.
   */
  before(paths: readonly string[]): Promise<void>;
  /**
   * Called once the apply ended (applied, skipped or failed, or rejected by
   * an abort) with the same paths, whenever `before` resolved, so the state
   * now on disk can be recorded. A rejection is ignored: the apply already
   * happened.
   */
  after(paths: readonly string[]): Promise<void>;
}

/**
 * Worktrees of worktree-mode children. The runtime's implementation works
 * through the GitClient port; tests may use a fake.
 */
export interface SubagentWorktrees {
  /**
   * Adds a linked worktree of the repository holding `workdir` on a new
   * branch from HEAD, under `<repository parent>/.agent-tools-subagents/<repository name>/<label>-<suffix>`,
   * retrying up to 8 times with a new suffix on a name collision. Rejects
   * with code `worktree_unavailable` when `workdir` is not in a repository
   * with a commit, `provision_failed` for other failures.
   */
  create(options: { readonly workdir: string; readonly label: string; readonly signal?: AbortSignal }): Promise<SubagentWorktree>;
  /** What the worktree changed (tracked and untracked, ignored files left out). */
  changes(worktree: SubagentWorktree, options: { readonly maxDiffChars: number; readonly signal?: AbortSignal }): Promise<SubagentWorktreeChanges>;
  /**
   * Applies the worktree's changes (limited to `paths` when given) to the
   * parent's work tree: `git apply`, else `git apply --3way`, else copying
   * the files (deleting the deleted ones). Callers serialise applies.
   * With a `recorder`, the files it may touch are recorded before the first
   * attempt and after the apply ended (nothing is recorded when the patch is
   * empty or already applied, as nothing changes then).
   */
  apply(
    worktree: SubagentWorktree,
    options?: { readonly paths?: readonly string[]; readonly signal?: AbortSignal; readonly recorder?: SubagentApplyRecorder },
  ): Promise<SubagentApplyOutcome>;
  /** Removes the worktree (with its local changes) and its branch. */
  remove(worktree: SubagentWorktree, options?: { readonly signal?: AbortSignal }): Promise<void>;
}
