import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { GitClient } from "@agent-tools/core";
import { describeRefusals } from "../domain/apply-refusal.js";
import { SUBAGENT_LIMITS } from "../domain/subagent-types.js";
import type { SubagentApplyOutcome, SubagentApplyRecorder, SubagentWorktree, SubagentWorktreeChanges, SubagentWorktrees } from "../ports/subagent-worktrees.js";
import { APPLY_JOURNAL_FILE } from "./apply-journal.js";
import { ensureApplyJournalFolder, withWorktreeAddLock } from "./apply-journal-folder.js";
import { type ApplyRecovery, applyToParent, recoverInterruptedApply, withApplyLock } from "./apply-to-parent.js";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";
import { describeSnapshotChanges, sectionsToApply } from "./git-subagent-worktree-patch.js";
import { KeyedMutex } from "./semaphore.js";
import { findApplyRefusals } from "./git-subagent-worktree-refusals.js";
import { type WorktreeSnapshot, readWorktreeSnapshot } from "./worktree-snapshot-read.js";

/** Branch prefix of subagent worktrees. */
export const SUBAGENT_BRANCH_PREFIX = "agent-tools/subagent/";
/** Folder, beside the repository, that holds its subagent worktrees. */
export const SUBAGENT_WORKTREE_FOLDER = ".agent-tools-subagents";
/** Longest label kept in a branch or folder name. */
export const SUBAGENT_LABEL_CHARS = 60;

/** Options of {@link GitSubagentWorktrees}. */
export interface GitSubagentWorktreesOptions {
  /**
   * Every git operation, on the parent's repository and on a child's
   * worktree (read with `snapshotWorktree`, which trusts nothing inside it):
   * the host's GitClient, e.g. `GitCliClient`.
   */
  readonly git: GitClient;
  /** A fresh name suffix per attempt; default 8 random hex digits. */
  readonly randomSuffix?: () => string;
}

/** A label reduced to `[A-Za-z0-9._-]`, without leading or trailing dots and dashes or `..`, at most {@link SUBAGENT_LABEL_CHARS}. */
export function sanitiseWorktreeLabel(label: string): string {
  const trim = (text: string) => text.replace(/^[.-]+/, "").replace(/[.-]+$/, "");
  const cleaned = trim(
    label
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/\.{2,}/g, ".")
      .replace(/-{2,}/g, "-"),
  );
  return trim(cleaned.slice(0, SUBAGENT_LABEL_CHARS)) || "agent";
}

/** The message of an unknown error. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when git refused because the branch or the path is already there. */
function isNameCollision(error: unknown): boolean {
  const stderr = (error as { details?: { stderr?: unknown } }).details?.stderr;
  return /already exists/i.test(typeof stderr === "string" ? stderr : messageOf(error));
}

/** Where a repository's worktrees live: `<parent>/.agent-tools-subagents/<name>` (its apply journal and lock: in its git directory, see `applyJournalFolderOf`). */
function stateFolderOf(root: string): string {
  return path.join(path.dirname(root), SUBAGENT_WORKTREE_FOLDER, path.basename(root));
}

async function exists(target: string): Promise<boolean> {
  return fs.lstat(target).then(
    () => true,
    () => false,
  );
}

/**
 * {@link SubagentWorktrees} over the GitClient port: a linked worktree per
 * worktree-mode run, on branch `agent-tools/subagent/<label>-<suffix>` in
 * `<repository parent>/.agent-tools-subagents/<repository name>/`, started
 * from the parent's HEAD (kept as `baseCommit`, the base of every diff).
 * Applies go to the parent's work tree only, never its index, all or
 * nothing, written by the SDK through a contained tree (see
 * `applyToParent`): each file only if the parent still holds the version
 * the worktree started from or a 3-way merge succeeds, else a conflict.
 *
 * A worktree's content is the child's data: git reads it only through
 * `GitClient.snapshotWorktree` (a private git directory, no hooks, fsmonitor,
 * drivers or submodule recursion), and an apply refuses `.git` entries,
 * submodules, special files, paths outside the workspace and links that
 * leave it (nothing applied, the worktree kept, each path named).
 *
 * @example
 * const worktrees = new GitSubagentWorktrees({ git: new GitCliClient() });
 * const worktree = await worktrees.create({ workdir: "/repo/packages/app", label: "review" });
 * // ... the child edits files under worktree.workdir ...
 * const outcome = await worktrees.apply(worktree);
 * await worktrees.remove(worktree);
 */
export class GitSubagentWorktrees implements SubagentWorktrees {
  readonly #git: GitClient;
  readonly #randomSuffix: () => string;
  /** Applies to one repository, one at a time in this process (across processes: the lock file). */
  readonly #applies = new KeyedMutex();

  constructor(options: GitSubagentWorktreesOptions) {
    this.#git = options.git;
    this.#randomSuffix = options.randomSuffix ?? (() => randomBytes(4).toString("hex"));
  }

  /** {@inheritDoc SubagentWorktrees.create} */
  async create(options: { readonly workdir: string; readonly label: string; readonly signal?: AbortSignal }): Promise<SubagentWorktree> {
    const { signal } = options;
    const workdir = await fs.realpath(options.workdir).catch(() => path.resolve(options.workdir));
    const root = await this.#git.repositoryRoot(workdir, { signal }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      return null;
    });
    if (root === null) {
      throw new SubagentWorktreeError("worktree_unavailable", `${options.workdir} is not inside a git repository, so a worktree cannot be created.`, {
        workdir: options.workdir,
      });
    }
    const listed = await this.#git.listWorktrees(root, { signal }).catch((error: unknown) => {
      if (signal?.aborted) throw error;
      throw new SubagentWorktreeError(
        "provision_failed",
        `Cannot list the worktrees of ${root}: ${messageOf(error)}`,
        { workdir: options.workdir },
        { cause: error },
      );
    });
    const baseCommit = listed.find((worktree) => worktree.path === root)?.head ?? null;
    if (baseCommit === null) {
      throw new SubagentWorktreeError("worktree_unavailable", `The repository ${root} has no commit yet, so a worktree cannot be created.`, {
        workdir: options.workdir,
        repositoryRoot: root,
      });
    }
    const offset = path.relative(root, workdir);
    // The journal folder exists before the child runs: the sandbox binds it read-only from then on.
    const journalFolder = await ensureApplyJournalFolder(root);
    const folder = stateFolderOf(root);
    const label = sanitiseWorktreeLabel(options.label);
    const failures: string[] = [];
    for (let attempt = 0; attempt < SUBAGENT_LIMITS.worktreeAttempts; attempt += 1) {
      const name = `${label}-${this.#randomSuffix()}`;
      const worktreePath = path.join(folder, name);
      const branch = `${SUBAGENT_BRANCH_PREFIX}${name}`;
      if (await exists(worktreePath)) {
        failures.push(`${worktreePath} already exists`);
        continue;
      }
      try {
        await fs.mkdir(folder, { recursive: true });
        const add = () => this.#git.addWorktree(root, { path: worktreePath, branch, startPoint: baseCommit, signal });
        await (journalFolder === undefined ? add() : withWorktreeAddLock(journalFolder, signal, add));
      } catch (error) {
        if (signal?.aborted || !isNameCollision(error)) {
          throw new SubagentWorktreeError(
            "provision_failed",
            `Cannot create a worktree of ${root}: ${messageOf(error)}`,
            { workdir: options.workdir, branch },
            { cause: error },
          );
        }
        failures.push(messageOf(error));
        continue;
      }
      const childWorkdir = path.join(worktreePath, offset);
      await fs.mkdir(childWorkdir, { recursive: true });
      return { repositoryRoot: root, path: worktreePath, branch, workdir: childWorkdir, baseCommit };
    }
    throw new SubagentWorktreeError(
      "provision_failed",
      `Cannot create a worktree of ${root}: every one of ${SUBAGENT_LIMITS.worktreeAttempts} names was taken (${failures.at(-1) ?? "unknown"}).`,
      { workdir: options.workdir, attempts: failures },
    );
  }

  /** The worktree's whole patch (and changed modes) against the commit it started from, never trusting the worktree's own `.git`. */
  async #snapshot(worktree: SubagentWorktree, signal: AbortSignal | undefined): Promise<WorktreeSnapshot> {
    return readWorktreeSnapshot(this.#git, worktree, signal === undefined ? {} : { signal });
  }

  /** {@inheritDoc SubagentWorktrees.changes} */
  async changes(worktree: SubagentWorktree, options: { readonly maxDiffChars: number; readonly signal?: AbortSignal }): Promise<SubagentWorktreeChanges> {
    return describeSnapshotChanges(await this.#snapshot(worktree, options.signal), options.maxDiffChars);
  }

  /** {@inheritDoc SubagentWorktrees.apply} */
  async apply(
    worktree: SubagentWorktree,
    options: { readonly paths?: readonly string[]; readonly signal?: AbortSignal; readonly recorder?: SubagentApplyRecorder } = {},
  ): Promise<SubagentApplyOutcome> {
    const { signal } = options;
    const none = { copiedFiles: [], deletedFiles: [], conflictFiles: [] };
    const snapshot = await this.#snapshot(worktree, signal);
    const sections = sectionsToApply(snapshot, options.paths);
    if (sections.length === 0 && snapshot.excluded.length === 0) return { applyStatus: "skipped", skipReason: "empty_patch", ...none };
    // Refused paths stop the whole apply before anything is recorded or written; the worktree is kept (a failed apply).
    const refusals = await findApplyRefusals(
      worktree,
      snapshot,
      sections.map((section) => section.path),
    );
    if (refusals.length > 0) return { applyStatus: "failed", ...none, error: describeRefusals(refusals, worktree.path) };
    const journalFolder = await ensureApplyJournalFolder(worktree.repositoryRoot);
    if (journalFolder === undefined) {
      return {
        applyStatus: "failed",
        ...none,
        error: `The subagent's changes were not applied, nothing in the workspace changed: ${worktree.repositoryRoot} has no git directory to keep the apply's journal in.`,
      };
    }
    return applyToParent({
      repositoryRoot: worktree.repositoryRoot,
      worktreePath: worktree.path,
      sections,
      stateFolder: journalFolder,
      queue: this.#applies,
      ...(options.recorder === undefined ? {} : { recorder: options.recorder }),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** {@inheritDoc SubagentWorktrees.recover} */
  async recover(options: { readonly workdir: string; readonly signal?: AbortSignal }): Promise<ApplyRecovery | undefined> {
    const workdir = await fs.realpath(options.workdir).catch(() => path.resolve(options.workdir));
    // The repository root is the nearest folder holding `.git`: no git needed to find it.
    for (let root = workdir; ; root = path.dirname(root)) {
      if (await exists(path.join(root, ".git"))) {
        // Made now, before a model runs anything, so the sandbox binds it read-only (nobody but the SDK writes a journal).
        const folder = await ensureApplyJournalFolder(root);
        if (folder === undefined || !(await exists(path.join(folder, APPLY_JOURNAL_FILE)))) return undefined;
        return withApplyLock(folder, this.#applies, options.signal, (tree) => recoverInterruptedApply(tree, root));
      }
      if (path.dirname(root) === root) return undefined;
    }
  }

  /** {@inheritDoc SubagentWorktrees.remove} */
  async remove(worktree: SubagentWorktree, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const { signal } = options;
    const root = worktree.repositoryRoot;
    try {
      await this.#git.removeWorktree(root, { path: worktree.path, force: true, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      // git refuses a worktree whose .git no longer points back (the child may have rewritten it): delete the
      // folder itself (fs.rm follows no link), as `remove --force` would have. Then, as for a worktree already
      // removed or deleted by hand: forget stale entries, and fail only if it is still there.
      if (path.basename(path.dirname(path.dirname(worktree.path))) === SUBAGENT_WORKTREE_FOLDER) {
        await fs.rm(worktree.path, { recursive: true, force: true, maxRetries: 2 });
      }
      await this.#git.pruneWorktrees(root, { signal });
      const listed = await this.#git.listWorktrees(root, { signal });
      if (listed.some((entry) => entry.path === worktree.path) || (await exists(path.join(worktree.path, ".git")))) throw error;
    }
    await this.#git.deleteBranch(root, { branch: worktree.branch, signal });
    // Leave no empty folders behind.
    const folder = path.dirname(worktree.path);
    for (const directory of [folder, path.dirname(folder)]) {
      if (path.basename(directory) === SUBAGENT_WORKTREE_FOLDER || path.basename(path.dirname(directory)) === SUBAGENT_WORKTREE_FOLDER) {
        await fs.rmdir(directory).catch(() => undefined);
      }
    }
  }
}
