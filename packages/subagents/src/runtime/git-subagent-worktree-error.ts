import { CodedError } from "@agent-tools/core";

/** Codes of a {@link SubagentWorktreeError}: the issue codes of a failed provision, and `worktree_unreadable` when its changes cannot be read. */
export type SubagentWorktreeErrorCode = "worktree_unavailable" | "provision_failed" | "worktree_unreadable";

/**
 * A worktree could not be provisioned: `worktree_unavailable` when the
 * workdir is not in a git repository with a commit, `provision_failed`
 * otherwise. `details` carries the workdir and, where known, the git error.
 *
 * @example
 * try {
 *   await worktrees.create({ workdir, label: "review" });
 * } catch (error) {
 *   if (error instanceof SubagentWorktreeError && error.code === "worktree_unavailable") console.log("not a repository");
 * }
 */
export class SubagentWorktreeError extends CodedError<SubagentWorktreeErrorCode, Record<string, unknown>> {
  override readonly name = "SubagentWorktreeError";

  constructor(code: SubagentWorktreeErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}
