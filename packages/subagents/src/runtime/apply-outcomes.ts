/**
 * The outcomes an apply of a child's changes reports (the local apply and
 * the apply through a workspace word them alike).
 */
import type { SubagentApplyOutcome } from "../ports/subagent-worktrees.js";
import type { ApplyConflict } from "./apply-plan.js";
import { comparePaths } from "./git-subagent-worktree-patch.js";

/** How many conflicting paths a failed apply's message names. */
const LISTED_CONFLICTS = 20;

/** The fields of older versions' copy fallback, empty in every outcome today. */
export const NO_COPIES = { copiedFiles: [], deletedFiles: [] } as const;

/** A failed apply that wrote nothing because `conflicts` conflict with the workspace (sorted, the first 20 named). */
export function conflictOutcome(conflicts: readonly ApplyConflict[]): SubagentApplyOutcome {
  const sorted = [...conflicts].sort((left, right) => comparePaths(left.path, right.path));
  const listed = sorted.slice(0, LISTED_CONFLICTS).map((conflict) => `${conflict.path} (${conflict.reason})`);
  if (sorted.length > LISTED_CONFLICTS) listed.push(`and ${sorted.length - LISTED_CONFLICTS} more`);
  return {
    applyStatus: "failed",
    ...NO_COPIES,
    conflictFiles: sorted.map((conflict) => conflict.path),
    error: `The subagent's changes were not applied, nothing in the workspace changed: ${sorted.length === 1 ? "1 file conflicts" : `${sorted.length} files conflict`} with the workspace: ${listed.join("; ")}. The changes stay in the subagent's worktree: merge them by hand, or run the agent again on the current files.`,
  };
}

/** A failed apply with no conflicting file, saying why in `error`. */
export function failedOutcome(error: string): SubagentApplyOutcome {
  return { applyStatus: "failed", ...NO_COPIES, conflictFiles: [], error };
}
