/**
 * Applying a worktree's changes to the parent's work tree on a non-local
 * workspace, through `workspace.fs` only, all or nothing as far as the port
 * allows:
 *
 * 1. One apply per repository at a time: an in-process queue, then the
 *    workspace's cross-process lock (`workspace.fs.lock`) of the
 *    repository's apply lock file.
 * 2. The plan (`planApply`, the same decisions as the local apply) reads the
 *    parent and the worktree without following a symlink on the way (every
 *    folder of a path is `lstat`ed) and decides every path; any conflict
 *    means nothing is written.
 * 3. The recorder saves the pre-images; the journal is saved.
 * 4. Each path, under the workspace's lock of the file (the one Write, Edit
 *    and Delete take), is checked to still hold what the plan read, then
 *    replaced with `writeFileAtomic` (a link: made beside it, renamed over
 *    it; a deletion: `unlink`). A failure or a path changed meanwhile puts
 *    every written path back, in memory from the plan's pre-images.
 * 5. The recorder saves the post-images, then the journal is removed.
 *
 * Before the first write a journal of every path's state before and after
 * is saved in the repository's worktree folder (`workspace-subagent-journal.ts`):
 * an apply a killed host left half done is rolled back by the next apply to
 * the repository or `recover` (the SDK calls it when a registry starts).
 */
import { posix } from "node:path";
import { ToolError } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { ContainedTree } from "@agent-tools/file-io/internal";
import type { SubagentApplyOutcome, SubagentApplyRecorder } from "../ports/subagent-worktrees.js";
import { type ApplyPlan, type PlannedWrite, planApply } from "./apply-plan.js";
import { holdsImage, readTreeEntry } from "./contained-entries.js";
import type { PatchSection } from "./git-subagent-worktree-patch.js";
import { comparePaths } from "./git-subagent-worktree-patch.js";
import { NO_COPIES, conflictOutcome, failedOutcome } from "./apply-outcomes.js";
import type { KeyedMutex } from "./semaphore.js";
import { readFileChanges } from "./worktree-file-changes.js";
import { lstatIn } from "./workspace-subagent-fs.js";
import {
  type WorkspaceJournalLedger,
  journalOfPlan,
  recoverWorkspaceApply,
  removeWorkspaceJournal,
  writeWorkspaceJournal,
} from "./workspace-subagent-journal.js";
import { ChangedMeanwhile, workspaceTree, writeImageIn } from "./workspace-subagent-tree.js";

/** Permission bits new files lose (the workspace's umask is not known through the port). */
const WORKSPACE_UMASK = 0o022;
/** Longest wait for another apply to the same repository. */
const APPLY_LOCK_TIMEOUT_MS = 10 * 60_000;
/** Longest wait for a file tool holding a file's lock. */
const FILE_LOCK_TIMEOUT_MS = 10_000;

/** Options of {@link applyInWorkspace}. */
export interface WorkspaceApplyOptions {
  readonly workspace: Workspace;
  /** The parent's work tree (the repository's top level), canonical. */
  readonly repositoryRoot: string;
  /** The worktree whose changes are applied. */
  readonly worktreePath: string;
  readonly sections: readonly PatchSection[];
  /** The file whose workspace lock serialises the repository's applies. */
  readonly lockFile: string;
  readonly queue: KeyedMutex;
  /** The key the crash journal is signed with (see `workspace-subagent-journal.ts`). */
  readonly journalKey: Uint8Array;
  /** The host's record of open journals. */
  readonly journalLedger: WorkspaceJournalLedger;
  readonly recorder?: SubagentApplyRecorder;
  readonly signal?: AbortSignal;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Writes the plan in order, each path checked under its file lock; returns the writes done (for an undo). */
async function commit(workspace: Workspace, tree: ContainedTree, plan: ApplyPlan, done: PlannedWrite[], signal: AbortSignal | undefined): Promise<void> {
  for (const write of plan.writes) {
    const target = posix.join(tree.root, ...write.path.split("/"));
    const lock = await workspace.fs.lock(target, { timeoutMs: FILE_LOCK_TIMEOUT_MS, ...(signal ? { signal } : {}) });
    try {
      const entry = await readTreeEntry(tree, write.path);
      if (entry.kind === "blocked") throw new ChangedMeanwhile(write.path, "a folder on its path became a symlink while the apply ran");
      if (!holdsImage(entry, write.pre)) throw new ChangedMeanwhile(write.path, "it changed in the workspace while the apply ran");
      done.push(write);
      await writeImageIn(workspace, tree.root, write.path, write.post);
    } finally {
      await lock.release();
    }
  }
}

/** Puts back the pre-image of every write done (last first) that still holds its post-image; then removes the folders the apply made. */
async function undo(workspace: Workspace, tree: ContainedTree, plan: ApplyPlan, done: readonly PlannedWrite[]): Promise<string[]> {
  const left: string[] = [];
  for (const write of [...done].reverse()) {
    try {
      const entry = await readTreeEntry(tree, write.path);
      if (holdsImage(entry, write.pre)) continue;
      if (!holdsImage(entry, write.post)) {
        left.push(write.path);
        continue;
      }
      await writeImageIn(workspace, tree.root, write.path, write.pre);
    } catch {
      left.push(write.path);
    }
  }
  for (const folder of [...plan.createdDirectories].reverse()) await workspace.fs.rmdir(posix.join(tree.root, ...folder.split("/"))).catch(() => undefined);
  return left;
}

/** Removes the folders a deletion left empty (as git does), deepest first; best effort. */
async function removeEmptiedFolders(workspace: Workspace, tree: ContainedTree, plan: ApplyPlan): Promise<void> {
  const folders = new Set<string>();
  for (const write of plan.writes) {
    if (write.post.kind !== "missing") continue;
    const parts = write.path.split("/");
    for (let length = parts.length - 1; length > 0; length -= 1) folders.add(parts.slice(0, length).join("/"));
  }
  for (const folder of [...folders].sort((left, right) => right.split("/").length - left.split("/").length)) {
    const absolute = posix.join(tree.root, ...folder.split("/"));
    const stats = await lstatIn(workspace, absolute).catch(() => undefined);
    if (stats?.type !== "directory") continue;
    const entries = await workspace.fs.readdir(absolute).catch(() => undefined);
    if (entries?.length === 0) await workspace.fs.rmdir(absolute).catch(() => undefined);
  }
}

/**
 * Applies the sections to the parent's work tree on the workspace, all or
 * nothing (see the module comment). Never writes outside `repositoryRoot`,
 * never through a symlink there, never over a parent change it did not merge.
 */
export async function applyInWorkspace(options: WorkspaceApplyOptions): Promise<SubagentApplyOutcome> {
  const { workspace, signal } = options;
  const changes = readFileChanges(options.sections);
  return options.queue.run(
    options.lockFile,
    async () => {
      const held = await workspace.fs.lock(options.lockFile, { timeoutMs: APPLY_LOCK_TIMEOUT_MS, ...(signal ? { signal } : {}) });
      try {
        await recoverWorkspaceApply(workspace, posix.dirname(options.lockFile), options.repositoryRoot, options.journalKey, options.journalLedger);
        const parentTree = workspaceTree(workspace, options.repositoryRoot);
        const worktree = workspaceTree(workspace, options.worktreePath);
        const plan = await planApply({ parentTree, worktree, changes, umaskBits: WORKSPACE_UMASK });
        if (plan.conflicts.length > 0) return conflictOutcome(plan.conflicts);
        if (plan.writes.length === 0) return { applyStatus: "skipped", skipReason: "already_applied", ...NO_COPIES, conflictFiles: [] };
        return await writePlan(parentTree, plan, options);
      } finally {
        await held.release();
      }
    },
    signal,
  );
}

async function writePlan(tree: ContainedTree, plan: ApplyPlan, options: WorkspaceApplyOptions): Promise<SubagentApplyOutcome> {
  const { workspace, recorder, signal } = options;
  const recorded = [...new Set(plan.writes.map((write) => posix.join(tree.root, ...write.path.split("/"))))].sort(comparePaths);
  if (recorder !== undefined) {
    try {
      await recorder.before(recorded);
    } catch (error) {
      return failedOutcome(`The subagent's changes were not applied, nothing in the workspace changed: ${messageOf(error)}`);
    }
  }
  const done: PlannedWrite[] = [];
  const folder = posix.dirname(options.lockFile);
  const journal = journalOfPlan(tree.root, plan);
  const finish = async () => {
    await removeWorkspaceJournal(workspace, folder);
    await options.journalLedger.closed(journal.id);
  };
  try {
    if (signal?.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted the Agent call before the subagent's changes were applied.");
    try {
      await options.journalLedger.opened(journal.id);
      await writeWorkspaceJournal(workspace, folder, journal, options.journalKey);
    } catch (error) {
      await finish().catch(() => undefined);
      await recorder?.after(recorded).catch(() => undefined);
      return failedOutcome(
        `The subagent's changes were not applied, nothing in the workspace changed: the apply's journal could not be saved (${messageOf(error)}).`,
      );
    }
    await commit(workspace, tree, plan, done, signal);
  } catch (error) {
    if (error instanceof ToolError && error.code === "cancelled" && done.length === 0) {
      await recorder?.after(recorded).catch(() => undefined);
      throw error;
    }
    const left = await undo(workspace, tree, plan, done);
    await recorder?.after(recorded).catch(() => undefined);
    // Fully undone: the journal goes; else it stays for the next apply or recover to finish the rollback.
    if (left.length === 0) await finish().catch(() => undefined);
    if (error instanceof ChangedMeanwhile && left.length === 0) return conflictOutcome([{ path: error.path, reason: error.reason }]);
    const kept = left.length === 0 ? "" : ` (left as they are, changed meanwhile or not restorable: ${left.join(", ")})`;
    return failedOutcome(
      `The subagent's changes were not applied, the workspace is as it was${kept}: writing them failed (${messageOf(error)}). The changes stay in the subagent's worktree.`,
    );
  }
  // The post-images are recorded before the journal goes: a host killed in between is rolled back to the pre-images.
  await recorder?.after(recorded).catch(() => undefined);
  try {
    await finish();
  } catch (error) {
    // Left in place, the journal would undo this apply later: undo it now, and say so.
    const left = await undo(workspace, tree, plan, plan.writes);
    if (left.length === 0) await finish().catch(() => undefined);
    return failedOutcome(
      `The subagent's changes were not applied, the workspace is as it was: the apply's journal could not be removed (${messageOf(error)}).`,
    );
  }
  await removeEmptiedFolders(workspace, tree, plan);
  const merged = plan.writes.some((write) => write.merged);
  return { applyStatus: "applied", applyMethod: merged ? "git_apply_3way" : "git_apply", ...NO_COPIES, conflictFiles: [] };
}
