/**
 * Where a repository's apply journal and apply lock live: in its git
 * directory (`<root>/.git/agent-tools/`, or `agent-tools/` in the git
 * directory a `.git` file names), never in a folder of the work tree. The
 * file tools refuse every `.git` path and the sandbox binds this folder
 * read-only once it exists, so a model can neither forge a journal nor
 * remove one; the folder is made when worktrees are created and at the
 * registry's start, before a model runs anything.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { acquireFileLock, anchorDirectory } from "@agent-tools/file-io/internal";

/** Name of the folder, in the repository's git directory, that holds the apply journal and lock. */
export const APPLY_JOURNAL_FOLDER = "agent-tools";
/** Longest `.git` file read (it holds one `gitdir:` line). */
const GIT_FILE_BYTES = 4096;

/**
 * The repository's git directory: `<root>/.git` when that is a real folder,
 * the folder a `.git` file's `gitdir:` line names (a linked worktree or a
 * submodule), else undefined (no repository at `root`).
 */
export async function gitDirectoryOf(root: string): Promise<string | undefined> {
  const dotGit = path.join(root, ".git");
  const stats = await fs.lstat(dotGit).catch(() => undefined);
  if (stats === undefined) return undefined;
  if (stats.isDirectory()) return dotGit;
  if (!stats.isFile() || stats.size > GIT_FILE_BYTES) return undefined;
  const text = await fs.readFile(dotGit, "utf8").catch(() => "");
  const named = /^gitdir: *(.+?)\s*$/m.exec(text)?.[1];
  if (named === undefined) return undefined;
  const resolved = await fs.realpath(path.resolve(root, named)).catch(() => undefined);
  if (resolved === undefined) return undefined;
  return (await fs.stat(resolved).catch(() => undefined))?.isDirectory() ? resolved : undefined;
}

/** The folder of `root`'s apply journal and lock (see the module comment); undefined when `root` holds no repository. */
export async function applyJournalFolderOf(root: string): Promise<string | undefined> {
  const gitDirectory = await gitDirectoryOf(root);
  return gitDirectory === undefined ? undefined : path.join(gitDirectory, APPLY_JOURNAL_FOLDER);
}

/**
 * Makes `root`'s journal folder (private to the user) so the sandbox binds
 * it read-only for every later command; returns it, undefined when `root`
 * holds no repository.
 */
export async function ensureApplyJournalFolder(root: string): Promise<string | undefined> {
  const folder = await applyJournalFolderOf(root);
  if (folder !== undefined) await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/** Name of the lock, in the journal folder, that `git worktree add` runs under. */
const WORKTREE_ADD_LOCK = "worktree-add";

/**
 * Runs `use` (a `git worktree add`) holding the repository's worktree
 * creation lock in `folder` (its journal folder), across registries and
 * processes: two concurrent adds race in git itself (one reads the other's
 * half-made `.git/worktrees/<name>/` and fails with "failed to read
 * commondir").
 */
export async function withWorktreeAddLock<T>(folder: string, signal: AbortSignal | undefined, use: () => Promise<T>): Promise<T> {
  const directory = anchorDirectory(folder);
  try {
    const lock = await acquireFileLock(directory, WORKTREE_ADD_LOCK, { toolName: "Agent", displayPath: folder, ...(signal ? { signal } : {}) });
    try {
      return await use();
    } finally {
      lock.release();
    }
  } finally {
    directory.close();
  }
}
