import path from "node:path";
import { decideApply, isOperatingSystemLitter } from "../domain/apply-decision.js";
import { decideCleanup } from "../domain/cleanup-decision.js";
import type { SubagentReportDetails } from "../domain/subagent-protocol.js";
import { SUBAGENT_LIMITS, type ResolvedAgentEntry, type SubagentRunStatus } from "../domain/subagent-types.js";
import type { SubagentApplyOutcome, SubagentApplyRecorder, SubagentWorktree, SubagentWorktrees } from "../ports/subagent-worktrees.js";
import type { SubagentScheduler } from "./subagent-scheduler.js";

/** The report fields a worktree run's settle step fills in. */
export type SubagentSettleReport = Pick<
  SubagentReportDetails,
  | "changedPaths"
  | "diff"
  | "diffTruncated"
  | "applyStatus"
  | "applyMethod"
  | "skipReason"
  | "fallbackReason"
  | "applyError"
  | "copiedFiles"
  | "deletedFiles"
  | "conflictFiles"
  | "worktreeCleanupStatus"
  | "cleanupReason"
  | "candidateArtifacts"
>;

/**
 * Settles a worktree run: reads what it changed, applies it to the parent
 * (only a completed run, as its apply policy allows, one apply at a time
 * across the registry), then removes or keeps the worktree by the cleanup
 * rules. Never throws: failures become report fields.
 */
export async function settleWorktree(options: {
  readonly worktrees: SubagentWorktrees;
  readonly worktree: SubagentWorktree;
  readonly entry: ResolvedAgentEntry;
  readonly status: SubagentRunStatus;
  readonly scheduler: SubagentScheduler;
  /** The parent's workdir: output paths are relative to it, changed paths to the repository's top level. */
  readonly parentWorkdir: string;
  /** Records the parent's files around the apply (the Agent call's file checkpoint). */
  readonly applyRecorder?: SubagentApplyRecorder;
}): Promise<SubagentSettleReport> {
  const { worktrees, worktree, entry, status } = options;
  const report: { -readonly [K in keyof SubagentSettleReport]: SubagentSettleReport[K] } = {};
  let statusError: string | undefined;
  let changedPaths: readonly string[] = [];
  try {
    const changes = await worktrees.changes(worktree, { maxDiffChars: SUBAGENT_LIMITS.diffChars });
    // Operating-system litter (.DS_Store, Thumbs.db, Desktop.ini) is no change: a worktree holding only that is unchanged.
    changedPaths = changes.changedPaths.filter((changed) => !isOperatingSystemLitter(changed));
    report.changedPaths = [...changedPaths];
    report.diff = changes.diff;
    report.diffTruncated = changes.diffTruncated;
  } catch (error) {
    statusError = messageOf(error);
  }
  let apply: SubagentApplyOutcome | undefined;
  let skipReason: string | undefined;
  if (status === "completed" && statusError === undefined) {
    // The policy speaks in workspace paths; the worktree in repository paths (they differ when the workdir is a subfolder).
    const offset = path.relative(worktree.repositoryRoot, options.parentWorkdir).split(path.sep).join("/");
    const toWorkspace = (changed: string) => (offset === "" ? changed : path.posix.relative(offset, changed));
    const toRepository = (relative: string) => (offset === "" ? relative : path.posix.join(offset, relative));
    const decision = decideApply({
      runStatus: status,
      changedPaths: changedPaths.map(toWorkspace),
      applyPolicy: entry.applyPolicy,
      allowedOutputPaths: entry.allowedOutputPaths,
    });
    if (decision.action === "apply") {
      apply = await options.scheduler.applies
        .run(() =>
          worktrees.apply(worktree, {
            paths: decision.paths.map(toRepository),
            ...(options.applyRecorder === undefined ? {} : { recorder: options.applyRecorder }),
          }),
        )
        .catch(
          (error: unknown): SubagentApplyOutcome => ({ applyStatus: "failed", copiedFiles: [], deletedFiles: [], conflictFiles: [], error: messageOf(error) }),
        );
      report.applyStatus = apply.applyStatus;
      if (apply.applyMethod !== undefined) report.applyMethod = apply.applyMethod;
      if (apply.skipReason !== undefined) report.skipReason = apply.skipReason;
      if (apply.fallbackReason !== undefined) report.fallbackReason = apply.fallbackReason;
      if (apply.error !== undefined) report.applyError = apply.error;
      report.copiedFiles = [...apply.copiedFiles];
      report.deletedFiles = [...apply.deletedFiles];
      report.conflictFiles = [...apply.conflictFiles];
      skipReason = apply.skipReason;
    } else {
      report.applyStatus = "skipped";
      report.skipReason = decision.reason;
      report.candidateArtifacts = [...decision.candidateArtifacts];
      skipReason = decision.reason;
    }
  }
  const cleanup = decideCleanup({
    runStatus: status,
    retainWorktree: entry.retainWorktree,
    statusError: statusError !== undefined,
    applyStatus: apply?.applyStatus ?? report.applyStatus,
    skipReason,
    changed: changedPaths.length > 0,
  });
  report.cleanupReason = statusError === undefined ? cleanup.reason : `${cleanup.reason}: ${statusError}`;
  if (cleanup.action === "remove") {
    try {
      await worktrees.remove(worktree);
      report.worktreeCleanupStatus = "removed";
    } catch (error) {
      report.worktreeCleanupStatus = "failed";
      report.cleanupReason = `${cleanup.reason}; removing failed: ${messageOf(error)}`;
    }
  } else report.worktreeCleanupStatus = "retained";
  return report;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
