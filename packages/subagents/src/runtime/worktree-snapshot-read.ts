/**
 * How the subagent worktrees read a child's worktree: through the GitClient
 * port's `snapshotWorktree` (which trusts nothing inside the worktree), its
 * failures reported as `worktree_unreadable`.
 */
import { GitClientError } from "@agent-tools/core";
import type { GitClient } from "@agent-tools/core";
import type { GitWorktreeChange, GitWorktreeExclusion, GitWorktreeExclusionReason, GitWorktreeSnapshot } from "@agent-tools/core/git";
import type { SubagentWorktree } from "../ports/subagent-worktrees.js";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";

/** What a worktree changed against its base commit (`GitClient.snapshotWorktree`). */
export type WorktreeSnapshot = GitWorktreeSnapshot;
/** One changed path of a worktree, as `git diff --raw` reports it. */
export type WorktreeChange = GitWorktreeChange;
/** A path of the worktree kept out of the patch: the apply must refuse it. */
export type WorktreeExclusion = GitWorktreeExclusion;
/** Why a path was kept out of a snapshot's patch. */
export type WorktreeExclusionReason = GitWorktreeExclusionReason;

/** Most bytes of a worktree's changed files, and of its patch, the host reads: 64 MiB. */
export const DEFAULT_MAX_PATCH_BYTES = 64 * 1024 * 1024;

/**
 * The worktree's changes against the commit it started from, never trusting
 * the worktree's own `.git`. A `GitClientError` becomes a
 * `SubagentWorktreeError("worktree_unreadable")` with the same message (a
 * `too_large` one says what to do about it); anything else (an abort) is
 * rethrown as it is.
 *
 * @example
 * const snapshot = await readWorktreeSnapshot(git, worktree, { signal });
 */
export async function readWorktreeSnapshot(
  git: GitClient,
  worktree: SubagentWorktree,
  options: { readonly signal?: AbortSignal; readonly maxPatchBytes?: number } = {},
): Promise<WorktreeSnapshot> {
  const maxPatchBytes = options.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  try {
    return await git.snapshotWorktree(worktree.repositoryRoot, {
      worktree: worktree.path,
      maxBytes: maxPatchBytes,
      ...(worktree.baseCommit === undefined ? {} : { base: worktree.baseCommit }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (!(error instanceof GitClientError)) throw error;
    if (error.code === "too_large") {
      const message = `${error.message.replace(/\.$/, "")}; nothing was read or applied. Look at the worktree by hand, or have the agent leave fewer or smaller files.`;
      throw new SubagentWorktreeError("worktree_unreadable", message, { worktreePath: worktree.path, maxPatchBytes }, { cause: error });
    }
    const { exitCode, stderr } = error.details;
    const ran = exitCode === undefined ? {} : { exitCode, stderr };
    throw new SubagentWorktreeError("worktree_unreadable", error.message, { worktreePath: worktree.path, ...ran }, { cause: error });
  }
}
