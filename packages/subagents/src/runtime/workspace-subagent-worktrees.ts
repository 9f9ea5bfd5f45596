import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import { type Workspace, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { describeRefusals } from "../domain/apply-refusal.js";
import { SUBAGENT_LIMITS } from "../domain/subagent-types.js";
import type {
  SubagentApplyOutcome,
  SubagentApplyRecorder,
  SubagentApplyRecovery,
  SubagentWorktree,
  SubagentWorktreeChanges,
  SubagentWorktrees,
} from "../ports/subagent-worktrees.js";
import { SubagentWorktreeError } from "./git-subagent-worktree-error.js";
import { describeSnapshotChanges, sectionsToApply } from "./git-subagent-worktree-patch.js";
import { findApplyRefusals } from "./git-subagent-worktree-refusals.js";
import { SUBAGENT_BRANCH_PREFIX, SUBAGENT_WORKTREE_FOLDER, sanitiseWorktreeLabel } from "./git-subagent-worktrees.js";
import { KeyedMutex } from "./semaphore.js";
import { DEFAULT_MAX_PATCH_BYTES } from "./worktree-snapshot-read.js";
import { applyInWorkspace } from "./workspace-subagent-apply.js";
import { checkoutWorkspaceWorktree } from "./workspace-subagent-checkout.js";
import { existsIn, lstatIn, removeTreeIn, workspaceEntryReader } from "./workspace-subagent-fs.js";
import { describeGitRun, runWorkspaceGit, workspaceProcesses } from "./workspace-subagent-git.js";
import { WORKSPACE_JOURNAL_FILE, type WorkspaceJournalLedger, memoryJournalLedger, recoverWorkspaceApply } from "./workspace-subagent-journal.js";
import { snapshotWorkspaceWorktree } from "./workspace-subagent-snapshot.js";

/** The apply lock file in a repository's worktree folder. */
const APPLY_LOCK_FILE = ".apply";
/** Makes git ignore a worktree folder inside the parent's work tree, itself included. */
const IGNORE_EVERYTHING = "# agent-tools: subagent worktrees (git ignores this folder)\n*\n";

/** Options of {@link WorkspaceSubagentWorktrees}. */
export interface WorkspaceSubagentWorktreesOptions {
  /** The workspace (with `processes` and git in it) where the parent's repository is. */
  readonly workspace: Workspace;
  /** A fresh name suffix per attempt; default 8 random hex digits. */
  readonly randomSuffix?: () => string;
  /** Most bytes of a worktree's changed files, and of its patch, read (default 64 MiB). */
  readonly maxPatchBytes?: number;
  /**
   * The key (at least 16 bytes) the apply's crash journal is signed with; a
   * journal not signed with it is never acted on. Keep it on the host across
   * restarts (the SDK keeps one in its `dataDir`) so a later host rolls back
   * what a killed one left. Default: a random key of this instance (only its
   * own applies are recovered).
   */
  readonly journalKey?: Uint8Array;
  /** The host's record of the journals it wrote and has not finished (keep it with the key); default: in this instance's memory. */
  readonly journalLedger?: WorkspaceJournalLedger;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * {@link SubagentWorktrees} on a non-local workspace (an SSH machine, a
 * provider's sandbox): git runs through `workspace.processes`, files are
 * read and written through `workspace.fs`, nothing touches this host's
 * disk. The contract of the local {@link GitSubagentWorktrees} holds
 * (refusals, all-or-nothing apply with 3-way line merges, no write through
 * a symlink or outside the work tree, one apply per repository at a time,
 * the recorder around the writes, a journal that rolls back an apply a
 * killed host left half done: the next apply or `recover`).
 *
 * Where worktrees live: `<repository parent>/.agent-tools-subagents/<repository name>/`
 * as on the local disk when that is inside `workspace.root`; else
 * `<workspace root>/.agent-tools-subagents/<repository name>/`, a folder
 * holding a `.gitignore` of `*`, so the parent's git (and the file tools'
 * walks) ignore it.
 *
 * @example
 * const worktrees = new WorkspaceSubagentWorktrees({ workspace: await createSshWorkspace({ host, username, privateKey, hostKey, root: "/srv" }) });
 * const worktree = await worktrees.create({ workdir: "/srv/app", label: "review" });
 */
export class WorkspaceSubagentWorktrees implements SubagentWorktrees {
  readonly #workspace: Workspace;
  readonly #randomSuffix: () => string;
  readonly #maxPatchBytes: number;
  readonly #applies = new KeyedMutex();
  readonly #adds = new KeyedMutex();
  readonly #journalKey: Uint8Array;
  readonly #journalLedger: WorkspaceJournalLedger;

  constructor(options: WorkspaceSubagentWorktreesOptions) {
    this.#workspace = options.workspace;
    if (options.journalKey !== undefined && options.journalKey.length < 16) {
      throw new SubagentWorktreeError("provision_failed", "journalKey must be at least 16 bytes (e.g. randomBytes(32)).", {});
    }
    this.#journalKey = options.journalKey ?? randomBytes(32);
    this.#journalLedger = options.journalLedger ?? memoryJournalLedger();
    this.#randomSuffix = options.randomSuffix ?? (() => randomBytes(4).toString("hex"));
    this.#maxPatchBytes = options.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  }

  /** The folder of a repository's worktrees, and whether it is inside the repository's work tree (then it gets its `.gitignore`). */
  #folderOf(root: string): { readonly folder: string; readonly ignoreFile?: string } {
    const beside = posix.join(posix.dirname(root), SUBAGENT_WORKTREE_FOLDER, posix.basename(root));
    if (root !== "/" && isWithinWorkspacePath(this.#workspace.root, beside)) return { folder: beside };
    const top = posix.join(this.#workspace.root, SUBAGENT_WORKTREE_FOLDER);
    return { folder: posix.join(top, posix.basename(root) || "root"), ignoreFile: posix.join(top, ".gitignore") };
  }

  /** Makes `folder` (inside the root) one level at a time, never through a link: why not, or undefined once it is there. */
  async #makeFolder(folder: string): Promise<string | undefined> {
    const root = this.#workspace.root;
    const parts = posix.relative(root, folder).split("/");
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const at = posix.join(root, ...parts.slice(0, depth));
      const stats = await lstatIn(this.#workspace, at);
      if (stats === undefined) await this.#workspace.fs.mkdir(at).catch(() => undefined);
      else if (stats.type === "symlink") return `has a symlink on the way (${at})`;
      else if (stats.type !== "directory") return `has a file on the way (${at})`;
    }
    return undefined;
  }

  /** Why `target` is not the canonical path of a folder inside the workspace root (a link on the way, outside), or undefined when it is. */
  async #outsideRoot(target: string): Promise<string | undefined> {
    const canonical = await this.#workspace.fs.realpath(target).catch(() => undefined);
    if (canonical === undefined) return "cannot be resolved";
    if (canonical !== target) return `resolves to ${canonical} (a symlink on the way)`;
    if (!isWithinWorkspacePath(this.#workspace.root, canonical)) return `is outside the workspace root ${this.#workspace.root}`;
    const stats = await lstatIn(this.#workspace, canonical);
    return stats?.type === "directory" ? undefined : "is not a folder";
  }

  /** The worktree checked to be the folder it was made as (the child may have swapped it for a link); else `worktree_unreadable`. */
  async #checkWorktree(worktree: SubagentWorktree): Promise<void> {
    const problem = await this.#outsideRoot(worktree.path);
    if (problem !== undefined) {
      throw new SubagentWorktreeError("worktree_unreadable", `The worktree ${worktree.path} ${problem}; nothing was read or applied.`, {
        worktreePath: worktree.path,
      });
    }
  }

  /** {@inheritDoc SubagentWorktrees.create} */
  async create(options: { readonly workdir: string; readonly label: string; readonly signal?: AbortSignal }): Promise<SubagentWorktree> {
    const { signal } = options;
    const workspace = this.#workspace;
    workspaceProcesses(workspace);
    const unavailable = (message: string, details: Record<string, unknown> = {}) =>
      new SubagentWorktreeError("worktree_unavailable", message, { workdir: options.workdir, ...details });
    const workdir = await workspace.fs.realpath(options.workdir).catch(() => posix.resolve(options.workdir));
    const git = (args: readonly string[], cwd: string) => runWorkspaceGit(workspace, args, { cwd, ...(signal ? { signal } : {}) });
    const top = await git(["rev-parse", "--show-toplevel"], workdir);
    if (top.exitCode === 127)
      throw unavailable(
        `git does not run on the workspace ${workspace.label} (${top.stderr.trim().slice(0, 200) || "not found"}), so a worktree cannot be created.`,
      );
    if (top.exitCode !== 0) throw unavailable(`${options.workdir} is not inside a git repository, so a worktree cannot be created.`);
    const root = await workspace.fs.realpath(top.stdout.toString("utf8").replace(/\n$/, ""));
    const head = await git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], root);
    const baseCommit = head.stdout.toString("utf8").trim();
    if (head.exitCode !== 0 || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(baseCommit)) {
      throw unavailable(`The repository ${root} has no commit yet, so a worktree cannot be created.`, { repositoryRoot: root });
    }
    const offset = posix.relative(root, workdir);
    const { folder, ignoreFile } = this.#folderOf(root);
    if (!isWithinWorkspacePath(workspace.root, folder)) {
      throw unavailable(`No folder inside the workspace root ${workspace.root} can hold a worktree of ${root}.`, { repositoryRoot: root });
    }
    // Nothing on the way may be a link (a model may plant `.agent-tools-subagents -> /elsewhere`): git would write the checkout there.
    const placed = (await this.#makeFolder(folder)) ?? (await this.#outsideRoot(folder));
    if (placed !== undefined) {
      throw new SubagentWorktreeError("provision_failed", `Cannot create a worktree of ${root}: ${folder} ${placed}.`, {
        workdir: options.workdir,
        folder,
      });
    }
    if (ignoreFile !== undefined && !(await existsIn(workspace, ignoreFile))) {
      await workspace.fs.writeFileAtomic(ignoreFile, Buffer.from(IGNORE_EVERYTHING, "utf8"), { exclusive: true }).catch(() => undefined);
    }
    const label = sanitiseWorktreeLabel(options.label);
    const failures: string[] = [];
    for (let attempt = 0; attempt < SUBAGENT_LIMITS.worktreeAttempts; attempt += 1) {
      const name = `${label}-${this.#randomSuffix()}`;
      const worktreePath = posix.join(folder, name);
      const branch = `${SUBAGENT_BRANCH_PREFIX}${name}`;
      if (await existsIn(workspace, worktreePath)) {
        failures.push(`${worktreePath} already exists`);
        continue;
      }
      // --no-checkout: git's own checkout would run the filter drivers the repository's config and attributes name (a
      // child's Bash can write both); the files are checked out in a private git directory instead.
      const args = ["worktree", "add", "--quiet", "--no-checkout", "-b", branch, worktreePath, baseCommit];
      // Concurrent adds race in git ("failed to read commondir"): serialised here, retried across processes.
      const added = await this.#adds.run(root, () => git(args, root));
      if (added.exitCode !== 0) {
        if (/already exists|failed to read .*commondir/i.test(added.stderr)) {
          failures.push(added.stderr.trim());
          continue;
        }
        throw new SubagentWorktreeError("provision_failed", `Cannot create a worktree of ${root}: ${describeGitRun(args, added)}`, {
          workdir: options.workdir,
          branch,
        });
      }
      const created = { repositoryRoot: root, path: worktreePath, branch, workdir: posix.join(worktreePath, offset), baseCommit };
      const scratchParent = folder;
      const problem = await checkoutWorkspaceWorktree(workspace, { repositoryRoot: root, worktreePath, baseCommit, scratchParent, signal }).catch(
        async (error: unknown) => {
          await this.remove(created).catch(() => undefined);
          throw error;
        },
      );
      if (problem !== undefined) {
        await this.remove(created).catch(() => undefined);
        throw new SubagentWorktreeError("provision_failed", `Cannot check out the worktree ${worktreePath} of ${root}: ${problem}`, {
          workdir: options.workdir,
          branch,
        });
      }
      await workspace.fs.mkdir(created.workdir, { recursive: true });
      return created;
    }
    throw new SubagentWorktreeError(
      "provision_failed",
      `Cannot create a worktree of ${root}: every one of ${SUBAGENT_LIMITS.worktreeAttempts} names was taken (${failures.at(-1) ?? "unknown"}).`,
      { workdir: options.workdir, attempts: failures },
    );
  }

  async #snapshot(worktree: SubagentWorktree, signal: AbortSignal | undefined) {
    await this.#checkWorktree(worktree);
    return snapshotWorkspaceWorktree(this.#workspace, worktree, {
      scratchParent: posix.dirname(worktree.path),
      maxBytes: this.#maxPatchBytes,
      ...(signal === undefined ? {} : { signal }),
    });
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
    const paths = sections.map((section) => section.path);
    const refusals = await findApplyRefusals(worktree, snapshot, paths, workspaceEntryReader(this.#workspace));
    if (refusals.length > 0) return { applyStatus: "failed", ...none, error: describeRefusals(refusals, worktree.path) };
    // The parent's work tree must be inside the workspace: the apply writes nothing elsewhere.
    const root = await this.#workspace.fs.realpath(worktree.repositoryRoot);
    // Nor into the worktrees' folder inside the work tree (other worktrees, the journal, the .gitignore).
    const worktreesFolder = posix.dirname(posix.dirname(worktree.path));
    const intoWorktrees = paths.filter((changed) => isWithinWorkspacePath(worktreesFolder, posix.join(root, changed)));
    if (intoWorktrees.length > 0) {
      return {
        applyStatus: "failed",
        ...none,
        error: `The subagent's changes were not applied, nothing in the workspace changed: ${intoWorktrees.slice(0, 5).join(", ")} ${intoWorktrees.length === 1 ? "is" : "are"} in the folder of the subagents' worktrees (${worktreesFolder}), which an apply never writes.`,
      };
    }
    if (!isWithinWorkspacePath(this.#workspace.root, root)) {
      const inside = paths.every((changed) => isWithinWorkspacePath(this.#workspace.root, posix.join(root, changed)));
      if (!inside) {
        return {
          applyStatus: "failed",
          ...none,
          error: `The subagent's changes were not applied, nothing in the workspace changed: some of them are outside the workspace root ${this.#workspace.root}.`,
        };
      }
    }
    return applyInWorkspace({
      workspace: this.#workspace,
      repositoryRoot: root,
      worktreePath: worktree.path,
      sections,
      lockFile: posix.join(posix.dirname(worktree.path), APPLY_LOCK_FILE),
      queue: this.#applies,
      journalKey: this.#journalKey,
      journalLedger: this.#journalLedger,
      ...(options.recorder === undefined ? {} : { recorder: options.recorder }),
      ...(signal === undefined ? {} : { signal }),
    });
  }

  /** {@inheritDoc SubagentWorktrees.recover} */
  async recover(options: { readonly workdir: string; readonly signal?: AbortSignal }): Promise<SubagentApplyRecovery | undefined> {
    const { signal } = options;
    const workspace = this.#workspace;
    if (workspace.processes === undefined || !workspace.capabilities.processes) return undefined;
    const top = await runWorkspaceGit(workspace, ["rev-parse", "--show-toplevel"], { cwd: options.workdir, ...(signal ? { signal } : {}) });
    if (top.exitCode !== 0) return undefined;
    const root = await workspace.fs.realpath(top.stdout.toString("utf8").replace(/\n$/, ""));
    const { folder } = this.#folderOf(root);
    if (!isWithinWorkspacePath(workspace.root, folder) || (await this.#outsideRoot(folder)) !== undefined) return undefined;
    if (!(await existsIn(workspace, posix.join(folder, WORKSPACE_JOURNAL_FILE)))) return undefined;
    const lockFile = posix.join(folder, APPLY_LOCK_FILE);
    return this.#applies.run(
      lockFile,
      async () => {
        const held = await workspace.fs.lock(lockFile, { timeoutMs: 10 * 60_000, ...(signal ? { signal } : {}) });
        try {
          return await recoverWorkspaceApply(workspace, folder, root, this.#journalKey, this.#journalLedger);
        } finally {
          await held.release();
        }
      },
      signal,
    );
  }

  /** {@inheritDoc SubagentWorktrees.remove} */
  async remove(worktree: SubagentWorktree, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    const { signal } = options;
    const workspace = this.#workspace;
    const root = worktree.repositoryRoot;
    const git = (args: readonly string[]) => runWorkspaceGit(workspace, args, { cwd: root, ...(signal ? { signal } : {}) });
    // A worktree the child swapped for a link never reaches git (it would empty the link's target): the link goes.
    const swapped = (await this.#outsideRoot(worktree.path)) !== undefined && (await lstatIn(workspace, worktree.path))?.type === "symlink";
    if (swapped) await workspace.fs.unlink(worktree.path);
    const removed = swapped
      ? { exitCode: 1, stdout: Buffer.alloc(0), stderr: "the worktree was a symlink" }
      : await git(["worktree", "remove", "--force", worktree.path]);
    if (removed.exitCode !== 0) {
      // git refuses a worktree whose .git no longer points back (the child may have rewritten it): delete the folder
      // itself (no link followed), then forget stale entries, and fail only if it is still there.
      if (posix.basename(posix.dirname(posix.dirname(worktree.path))) === SUBAGENT_WORKTREE_FOLDER) await removeTreeIn(workspace, worktree.path);
      await git(["worktree", "prune"]);
      if (await existsIn(workspace, posix.join(worktree.path, ".git"))) {
        throw new Error(`The worktree ${worktree.path} could not be removed: ${describeGitRun(["worktree", "remove"], removed)}`);
      }
    }
    const branch = await git(["branch", "-D", "--", worktree.branch]);
    if (branch.exitCode !== 0 && !/not found/i.test(branch.stderr))
      throw new Error(`The branch ${worktree.branch} could not be deleted: ${messageOf(branch.stderr)}`);
    // Leave no empty folders behind (the lock file and the .gitignore are ours).
    const folder = posix.dirname(worktree.path);
    const entries = await workspace.fs.readdir(folder).catch(() => undefined);
    if (entries?.every((entry) => entry.type === "file" && (entry.name === APPLY_LOCK_FILE || entry.name.endsWith(".agent-tools-lock")))) {
      for (const entry of entries) await workspace.fs.unlink(posix.join(folder, entry.name)).catch(() => undefined);
      await workspace.fs.rmdir(folder).catch(() => undefined);
      const top = posix.dirname(folder);
      const left = await workspace.fs.readdir(top).catch(() => undefined);
      if (left?.every((entry) => entry.name === ".gitignore")) {
        const ignore = posix.join(top, ".gitignore");
        const text = await lstatIn(workspace, ignore).then((stats) => (stats?.type === "file" ? workspace.fs.readFile(ignore) : undefined));
        if (text === undefined || text.toString("utf8") === IGNORE_EVERYTHING) {
          if (text !== undefined) await workspace.fs.unlink(ignore).catch(() => undefined);
          await workspace.fs.rmdir(top).catch(() => undefined);
        }
      }
    }
  }
}
