/**
 * Reading and writing single entries of a work tree through a
 * {@link ContainedTree} (no symlink followed anywhere on the way), and the
 * per-file lock the file tools take, so an apply and a Write, Edit or Delete
 * of the same file never interleave.
 */
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { type AnchoredDirectory, type ContainedTree, acquireFileLock, anchorDirectory } from "@agent-tools/file-io/internal";

/** What a path holds in a work tree, read without following a symlink. */
export type TreeEntry =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly bytes: Buffer; readonly mode: number }
  | { readonly kind: "link"; readonly target: string }
  | { readonly kind: "directory" }
  | { readonly kind: "other" }
  /** A folder on the way is a symlink or not a folder: nothing there can be read or written. */
  | { readonly kind: "blocked"; readonly reason: string };

/** A state an apply writes or restores: nothing, a file (bytes and permission bits) or a symlink. */
export type EntryImage =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly bytes: Buffer; readonly mode: number }
  | { readonly kind: "link"; readonly target: string };

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

function blocked(error: unknown): TreeEntry | undefined {
  if (error instanceof ToolError && error.code === "out_of_bounds") {
    const reason = / on the way is a symlink/.test(error.message)
      ? "a folder on its path is a symlink"
      : / on the way is not a directory/.test(error.message)
        ? "a folder on its path is a file"
        : / it is a symlink/.test(error.message)
          ? "it became a symlink while it was read"
          : error.message;
    return { kind: "blocked", reason };
  }
  if (codeOf(error) === "ENOTDIR") return { kind: "blocked", reason: "a folder on its path is a file" };
  if (codeOf(error) === "ENOENT") return { kind: "missing" };
  return undefined;
}

/** What `relative` holds in `tree` now (files read into memory). */
export async function readTreeEntry(tree: ContainedTree, relative: string): Promise<TreeEntry> {
  try {
    const stats = await tree.lstat(relative);
    if (stats === undefined) return { kind: "missing" };
    if (stats.isSymbolicLink()) return { kind: "link", target: await tree.readlink(relative) };
    if (stats.isDirectory()) return { kind: "directory" };
    // Checked before opening: a FIFO or a device is never opened.
    if (!stats.isFile()) return { kind: "other" };
    const bytes = await tree.readFile(relative);
    return { kind: "file", bytes, mode: stats.mode & 0o7777 };
  } catch (error) {
    const known = blocked(error);
    if (known !== undefined) return known;
    throw error;
  }
}

/** True when `entry` holds exactly `image` (bytes and permission bits, or the link target). */
export function holdsImage(entry: TreeEntry, image: EntryImage): boolean {
  if (entry.kind === "file" && image.kind === "file") return entry.mode === image.mode && entry.bytes.equals(image.bytes);
  if (entry.kind === "link" && image.kind === "link") return entry.target === image.target;
  return entry.kind === "missing" && image.kind === "missing";
}

/** Puts `image` at `relative` atomically (a file or link by temporary entry and rename; missing by removal). */
export async function writeImage(tree: ContainedTree, relative: string, image: EntryImage): Promise<void> {
  if (image.kind === "missing") await tree.remove(relative);
  else if (image.kind === "link") await tree.symlink(relative, image.target, { createParents: true });
  else await tree.writeFile(relative, image.bytes, { mode: image.mode, createParents: true });
}

/** Longest wait for a file tool holding a file's lock (they hold it for milliseconds). */
const FILE_LOCK_TIMEOUT_MS = 10_000;

/**
 * Runs `use` holding the lock Write, Edit and Delete take on the file
 * (`.<name>.agent-tools.lock` beside it), so none of them can change it
 * between the apply's check and its write. A lock abandoned by a killed
 * process is broken (and its temporary files swept). When the file's folder
 * does not exist, there is nothing to lock. Rejects with `out_of_bounds`
 * when the folder is not the one under the root (a symlink on the way).
 */
export async function withFileLock<T>(root: string, relative: string, use: () => Promise<T>): Promise<T> {
  const folder = path.posix.dirname(relative);
  let directory: AnchoredDirectory;
  try {
    directory = anchorDirectory(folder === "." ? root : path.join(root, ...folder.split("/")));
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return use();
    if ((error as Error).name === "DirectoryMovedError") {
      throw new ToolError("out_of_bounds", `${relative} cannot be written: a folder on its path is a symlink in the work tree.`, {
        details: { path: relative },
      });
    }
    throw error;
  }
  try {
    const lock = await acquireFileLock(directory, path.posix.basename(relative), { toolName: "Agent", displayPath: relative, timeoutMs: FILE_LOCK_TIMEOUT_MS });
    try {
      return await use();
    } finally {
      lock.release();
    }
  } finally {
    directory.close();
  }
}
