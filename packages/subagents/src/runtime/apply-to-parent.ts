/**
 * Applying a worktree's changes to the parent's work tree, written by the
 * SDK itself (never `git apply` on the parent), all or nothing:
 *
 * 1. One apply per repository at a time: an in-process queue, then a lock
 *    file every process honours (`acquireFileLock` on the journal); a
 *    journal a killed process left is rolled back first.
 * 2. The plan ({@link planApply}) reads the parent and the worktree without
 *    following symlinks and decides every path; any conflict means nothing
 *    is written and the outcome names the paths.
 * 3. The checkpoint recorder saves the pre-images; the journal is written
 *    and fsynced.
 * 4. Each path, under the file tools' lock of the file, is checked to still
 *    hold what the plan read, then replaced atomically through the
 *    contained tree (no symlink followed, nothing outside the root). A
 *    failure or a path changed meanwhile rolls every written path back.
 * 5. The recorder saves the post-images, then the journal is removed (the
 *    commit point).
 */
import fs from "node:fs/promises";
import { ToolError } from "@agent-tools/core";
import { type ContainedTree, acquireFileLock, anchorDirectory, openContainedTree } from "@agent-tools/file-io/internal";
import type { SubagentApplyOutcome, SubagentApplyRecorder, SubagentApplyRecovery } from "../ports/subagent-worktrees.js";
import { recordedPaths } from "./apply-checkpoint-recording.js";
import { type ApplyJournal, type RollbackReport, journalOf, readJournal, removeJournal, rollBack, setJournalAside, writeJournal } from "./apply-journal.js";
import { APPLY_JOURNAL_FILE } from "./apply-journal.js";
import { type ApplyPlan, planApply } from "./apply-plan.js";
import { holdsImage, readTreeEntry, withFileLock, writeImage } from "./contained-entries.js";
import type { PatchSection } from "./git-subagent-worktree-patch.js";
import { comparePaths } from "./git-subagent-worktree-patch.js";
import { NO_COPIES, conflictOutcome, failedOutcome } from "./apply-outcomes.js";
import type { KeyedMutex } from "./semaphore.js";
import { readFileChanges } from "./worktree-file-changes.js";

/** Conflicting paths named in an apply's error message (all of them are in `conflictFiles`). */
/** Attempts to take the repository's apply lock when its folder vanishes meanwhile (a worktree removal tidying up). */
const LOCK_ATTEMPTS = 4;

/** What a recovery of an interrupted apply did. */
export type ApplyRecovery = SubagentApplyRecovery;

/** A path that changed between the plan and its write. */
class ChangedMeanwhile extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} changed in the workspace while the apply ran: ${reason}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * Runs `use` holding the repository's apply lock (in-process `queue`, then
 * the lock file in `stateFolder`), with the folder opened as a tree.
 */
export async function withApplyLock<T>(
  stateFolder: string,
  queue: KeyedMutex,
  signal: AbortSignal | undefined,
  use: (folder: ContainedTree) => Promise<T>,
): Promise<T> {
  return queue.run(
    stateFolder,
    async () => {
      for (let attempt = 1; ; attempt += 1) {
        await fs.mkdir(stateFolder, { recursive: true });
        let directory: ReturnType<typeof anchorDirectory> | undefined;
        try {
          directory = anchorDirectory(stateFolder);
          const lock = await acquireFileLock(directory, APPLY_JOURNAL_FILE, { toolName: "Agent", displayPath: stateFolder, ...(signal ? { signal } : {}) });
          const folder = openContainedTree(stateFolder);
          try {
            return await use(folder);
          } finally {
            folder.close();
            lock.release();
          }
        } catch (error) {
          // The empty folder was removed between the mkdir and the lock (a worktree's removal tidies it): once more.
          if (codeOf(error) !== "ENOENT" || attempt >= LOCK_ATTEMPTS) throw error;
        } finally {
          directory?.close();
        }
      }
    },
    signal,
  );
}

/**
 * Rolls back the apply whose journal is in `folder` (a process killed
 * mid-apply), then removes the journal; undefined when there is none. A
 * journal holding anything the apply itself would not write (a path with a
 * `.git` segment or `..`, a symlink leaving the tree, another repository's
 * journal, see `readJournal`) is set aside untouched and its reason
 * returned. Call it holding the apply lock.
 */
export async function recoverInterruptedApply(folder: ContainedTree, repositoryRoot: string): Promise<ApplyRecovery | undefined> {
  const journal = await readJournal(folder);
  if (journal === undefined) return undefined;
  if ("invalid" in journal || journal.repositoryRoot !== repositoryRoot) {
    const refused = "invalid" in journal ? journal.invalid : `it is the journal of ${journal.repositoryRoot}`;
    // Never acted on: kept for a person to look at, out of the next apply's way.
    const aside = await setJournalAside(folder, Date.now());
    return { repositoryRoot, rolledBack: [], conflicts: [], unreadableJournal: aside, journalRefused: refused };
  }
  const tree = openContainedTree(repositoryRoot);
  try {
    const report = await rollBack(tree, journal);
    await removeJournal(folder);
    return { repositoryRoot, ...report };
  } finally {
    tree.close();
  }
}

/** Writes the plan, each path checked under its file lock to still hold what the plan read. */
async function commit(tree: ContainedTree, plan: ApplyPlan): Promise<void> {
  for (const write of plan.writes) {
    try {
      await withFileLock(tree.root, write.path, async () => {
        if (!holdsImage(await readTreeEntry(tree, write.path), write.pre))
          throw new ChangedMeanwhile(write.path, "it changed in the workspace while the apply ran");
        await writeImage(tree, write.path, write.post);
      });
    } catch (error) {
      // A folder on the way swapped for a symlink meanwhile is a change like any other.
      if (error instanceof ToolError && error.code === "out_of_bounds")
        throw new ChangedMeanwhile(write.path, "a folder on its path became a symlink while the apply ran");
      throw error;
    }
  }
}

/** Removes the folders a deletion left empty (as git does), deepest first; best effort, after the apply is final. */
async function removeEmptiedFolders(tree: ContainedTree, plan: ApplyPlan): Promise<void> {
  const folders = new Set<string>();
  for (const write of plan.writes) {
    if (write.post.kind !== "missing") continue;
    const parts = write.path.split("/");
    for (let length = parts.length - 1; length > 0; length -= 1) folders.add(parts.slice(0, length).join("/"));
  }
  for (const folder of [...folders].sort((left, right) => right.split("/").length - left.split("/").length)) {
    const entries = await tree.readdir(folder).catch(() => undefined);
    if (entries?.length === 0) await tree.remove(folder).catch(() => false);
  }
}

/** Options of {@link applyToParent}. */
export interface ApplyToParentOptions {
  /** The parent's work tree (the repository's top level). */
  readonly repositoryRoot: string;
  /** The worktree whose changes are applied. */
  readonly worktreePath: string;
  /** The sections of the worktree's patch to apply. */
  readonly sections: readonly PatchSection[];
  /** Where the repository's journal and apply lock live. */
  readonly stateFolder: string;
  /** The in-process queue of applies, keyed by state folder. */
  readonly queue: KeyedMutex;
  readonly recorder?: SubagentApplyRecorder;
  readonly signal?: AbortSignal;
}

/**
 * Applies the sections to the parent's work tree, all or nothing (see the
 * module comment). Never writes outside `repositoryRoot`, never follows a
 * symlink there, never overwrites a parent change it did not merge.
 */
export async function applyToParent(options: ApplyToParentOptions): Promise<SubagentApplyOutcome> {
  const changes = readFileChanges(options.sections);
  const root = await fs.realpath(options.repositoryRoot);
  return withApplyLock(options.stateFolder, options.queue, options.signal, async (folder) => {
    await recoverInterruptedApply(folder, root);
    const parentTree = openContainedTree(root);
    const worktree = openContainedTree(options.worktreePath);
    try {
      const plan = await planApply({ parentTree, worktree, changes, umaskBits: process.umask() });
      if (plan.conflicts.length > 0) return conflictOutcome(plan.conflicts);
      if (plan.writes.length === 0) return { applyStatus: "skipped", skipReason: "already_applied", ...NO_COPIES, conflictFiles: [] };
      return await writePlan(folder, parentTree, plan, options);
    } finally {
      parentTree.close();
      worktree.close();
    }
  });
}

/** Steps 3 to 5: record, journal, write (or roll back), record, commit. */
async function writePlan(folder: ContainedTree, tree: ContainedTree, plan: ApplyPlan, options: ApplyToParentOptions): Promise<SubagentApplyOutcome> {
  const { recorder } = options;
  // In path order, as the patch lists them.
  const recorded = recordedPaths(tree.root, plan.writes.map((write) => write.path).sort(comparePaths));
  if (recorder !== undefined) {
    try {
      await recorder.before(recorded);
    } catch (error) {
      return failedOutcome(`The subagent's changes were not applied, nothing in the workspace changed: ${messageOf(error)}`);
    }
  }
  const journal = journalOf(tree.root, plan, Date.now());
  let written: Written;
  try {
    written = await writeJournaled(folder, tree, plan, journal, options.signal);
  } finally {
    // The post-images are recorded before the journal goes: a process killed in between is rolled back to the pre-images.
    await recorder?.after(recorded).catch(() => undefined);
  }
  if (written.journal === "pending") {
    try {
      await removeJournal(folder);
    } catch (error) {
      if (written.outcome.applyStatus !== "applied") return written.outcome;
      // Left in place, the journal would undo this apply later: undo it now, and say so.
      const undone = await undo(tree, journal, new Error(`the apply's journal could not be removed (${messageOf(error)})`));
      if (undone.rolledBack) await removeJournal(folder).catch(() => undefined);
      return undone.outcome;
    }
  }
  if (written.outcome.applyStatus === "applied") await removeEmptiedFolders(tree, plan);
  return written.outcome;
}

/** How {@link writeJournaled} ended: the outcome, and whether the journal is to be removed now, never written, or kept for a later rollback. */
interface Written {
  readonly outcome: SubagentApplyOutcome;
  readonly journal: "pending" | "none" | "kept";
}

/** Saves the journal, then writes every path; on a failure rolls them back. Rejects only on an abort before the first write. */
async function writeJournaled(
  folder: ContainedTree,
  tree: ContainedTree,
  plan: ApplyPlan,
  journal: ApplyJournal,
  signal: AbortSignal | undefined,
): Promise<Written> {
  if (signal?.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted the Agent call before the subagent's changes were applied.");
  try {
    await writeJournal(folder, journal);
  } catch (error) {
    await folder.remove(APPLY_JOURNAL_FILE).catch(() => false);
    return {
      outcome: failedOutcome(
        `The subagent's changes were not applied, nothing in the workspace changed: the apply's journal could not be saved (${messageOf(error)}).`,
      ),
      journal: "none",
    };
  }
  try {
    await commit(tree, plan);
  } catch (error) {
    const undone = await undo(tree, journal, error);
    return { outcome: undone.outcome, journal: undone.rolledBack ? "pending" : "kept" };
  }
  const merged = plan.writes.some((write) => write.merged);
  return { outcome: { applyStatus: "applied", applyMethod: merged ? "git_apply_3way" : "git_apply", ...NO_COPIES, conflictFiles: [] }, journal: "pending" };
}

/** Rolls the written paths back after `cause` stopped the apply; the outcome says what happened. */
async function undo(tree: ContainedTree, journal: ApplyJournal, cause: unknown): Promise<{ outcome: SubagentApplyOutcome; rolledBack: boolean }> {
  let report: RollbackReport;
  try {
    report = await rollBack(tree, journal);
  } catch (error) {
    const outcome = failedOutcome(
      `Applying the subagent's changes failed (${messageOf(cause)}), and the files written so far could not be undone (${messageOf(error)}). They are undone at the next apply to this repository or the next start of the host; the changes stay in the subagent's worktree.`,
    );
    return { outcome, rolledBack: false };
  }
  if (cause instanceof ChangedMeanwhile) return { outcome: conflictOutcome([{ path: cause.path, reason: cause.reason }]), rolledBack: true };
  const left = report.conflicts.length === 0 ? "" : ` (left as they are, changed meanwhile: ${report.conflicts.map((conflict) => conflict.path).join(", ")})`;
  const outcome = failedOutcome(
    `The subagent's changes were not applied, the workspace is as it was${left}: writing them failed (${messageOf(cause)}). The changes stay in the subagent's worktree.`,
  );
  return { outcome, rolledBack: true };
}
