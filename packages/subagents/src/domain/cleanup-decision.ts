/**
 * Whether a worktree is removed or kept after its run. Kept whenever it may
 * still hold work the parent needs: a failed or cancelled run, a retained
 * worktree, an unreadable status, a failed apply, changes not applied.
 */
import type { SubagentRunStatus } from "./subagent-types.js";

/** The outcome of {@link decideCleanup}. */
export interface CleanupDecision {
  readonly action: "remove" | "keep";
  /** `agent_failed`, `agent_cancelled`, `agent_running`, `retain_worktree`, `status_error`, `apply_failed`, `applied`, `already_applied`, `unchanged` or `unapplied_changes`. */
  readonly reason: string;
}

/**
 * Decides the cleanup of a worktree. A failed or cancelled run always
 * keeps it (`agent_failed` / `agent_cancelled`); otherwise the first rule
 * that matches: 1. `retainWorktree` -> keep; 2. the status could not be read
 * -> keep; 3. the apply failed -> keep; 4. applied -> remove; 5. skipped as
 * `already_applied` -> remove; 6. nothing changed -> remove; 7. keep
 * (`unapplied_changes`).
 *
 * @example
 * decideCleanup({ runStatus: "completed", retainWorktree: false, statusError: false, applyStatus: "applied", changed: true });
 * // { action: "remove", reason: "applied" }
 */
export function decideCleanup(options: {
  readonly runStatus: SubagentRunStatus;
  readonly retainWorktree: boolean;
  /** True when the worktree's status (changes) could not be read. */
  readonly statusError: boolean;
  readonly applyStatus?: "applied" | "skipped" | "failed";
  readonly skipReason?: string;
  /** True when the worktree changed anything. */
  readonly changed: boolean;
}): CleanupDecision {
  if (options.runStatus === "failed") return { action: "keep", reason: "agent_failed" };
  if (options.runStatus === "cancelled") return { action: "keep", reason: "agent_cancelled" };
  // A run still going has nothing settled yet; never remove under it.
  if (options.runStatus === "running") return { action: "keep", reason: "agent_running" };
  if (options.retainWorktree) return { action: "keep", reason: "retain_worktree" };
  if (options.statusError) return { action: "keep", reason: "status_error" };
  if (options.applyStatus === "failed") return { action: "keep", reason: "apply_failed" };
  if (options.applyStatus === "applied") return { action: "remove", reason: "applied" };
  if (options.skipReason === "already_applied") return { action: "remove", reason: "already_applied" };
  if (!options.changed) return { action: "remove", reason: "unchanged" };
  return { action: "keep", reason: "unapplied_changes" };
}
