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

/**
 * How an apply went (fields as the report's details carry them). An apply
 * is all or nothing: `applied` wrote every change, `failed` wrote none (the
 * workspace is as it was; `conflictFiles` names the paths that conflict with
 * changes made in the workspace since the worktree started, `error` says
 * why), `skipped` had nothing to write.
 */
export interface SubagentApplyOutcome {
  readonly applyStatus: "applied" | "skipped" | "failed";
  /**
   * `git_apply`: every changed file still held the version the worktree
   * started from; `git_apply_3way`: at least one was changed in the
   * workspace too and merged line by line without a conflict.
   * `file_copy_fallback` is no longer produced (records of older versions).
   */
  readonly applyMethod?: "git_apply" | "git_apply_3way" | "file_copy_fallback";
  /** `fallback_noop` is no longer produced (records of older versions). */
  readonly skipReason?: "empty_patch" | "already_applied" | "fallback_noop";
  /** Records of older versions only (why `git apply` did not take the patch when a copy fallback ran). */
  readonly fallbackReason?: string;
  /** Records of older versions only (files a copy fallback copied). */
  readonly copiedFiles: readonly string[];
  /** Records of older versions only (files a copy fallback deleted). */
  readonly deletedFiles: readonly string[];
  /** Repository-relative paths that conflict with the workspace (the apply then wrote nothing). */
  readonly conflictFiles: readonly string[];
  readonly error?: string;
}

/** What {@link SubagentWorktrees.recover} did with an apply a killed process left half done. */
export interface SubagentApplyRecovery {
  /** The repository whose apply was rolled back. */
  readonly repositoryRoot: string;
  /** Repository-relative paths put back to their state before the apply. */
  readonly rolledBack: readonly string[];
  /** Paths changed again since (holding neither state): left as they are. */
  readonly conflicts: readonly { readonly path: string; readonly reason: string }[];
  /** Where a journal that was not acted on was set aside (nothing rolled back), in the journal's folder. */
  readonly unreadableJournal?: string;
  /** Why that journal was not acted on (not one this version wrote, another repository's, or an entry the apply would refuse). */
  readonly journalRefused?: string;
}

/**
 * Records the parent's files an apply may touch, around the apply (the Agent
 * tool gives one that saves them in the call's file checkpoint, so a rewind
 * undoes the apply).
 */
export interface SubagentApplyRecorder {
  /**
   * Called once, before the apply changes anything, with the canonical
   * absolute path of every parent file it writes (modified, created and
   * deleted files). A rejection stops the apply: it changes nothing and
   * fails with the rejection's message.
   */
  before(paths: readonly string[]): Promise<void>;
  /**
   * Called once the apply wrote everything or undid what it wrote (or an
   * abort stopped it before the first write), with the same paths,
   * whenever `before` resolved, so the state now on disk can be recorded. A
   * rejection is ignored.
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
   * Applies the worktree's changes (limited to `paths` when given; never
   * operating-system litter such as `.DS_Store`) to the parent's work tree,
   * all or nothing: a file is written only when the
   * parent still holds the version the worktree started from, or when a
   * line-based 3-way merge with the parent's own change succeeds; any other
   * file is a conflict, and then nothing is written (`failed` with
   * `conflictFiles`). Writes never leave the work tree nor follow a symlink
   * in it. Applies to one repository run one at a time, across processes;
   * one interrupted by a killed process is rolled back by the next apply or
   * {@link SubagentWorktrees.recover}. With a `recorder`, the files it
   * writes are recorded before the first write and after the last (nothing
   * is recorded when nothing is to be written or a conflict stops it).
   */
  apply(
    worktree: SubagentWorktree,
    options?: { readonly paths?: readonly string[]; readonly signal?: AbortSignal; readonly recorder?: SubagentApplyRecorder },
  ): Promise<SubagentApplyOutcome>;
  /**
   * Rolls back an apply that a killed process left half done in the
   * repository holding `workdir`, if any (hosts call it when a registry
   * starts; the next apply does it too). Resolves what it did, or undefined
   * when there was nothing to recover. Optional for adapters without
   * interrupted applies.
   */
  recover?(options: { readonly workdir: string; readonly signal?: AbortSignal }): Promise<SubagentApplyRecovery | undefined>;
  /** Removes the worktree (with its local changes) and its branch. */
  remove(worktree: SubagentWorktree, options?: { readonly signal?: AbortSignal }): Promise<void>;
}
