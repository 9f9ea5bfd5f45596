/**
 * The metadata mutations of the local workspace (rename, unlink, mkdir,
 * rmdir), each done through the descriptor of the entry's parent directory
 * (see {@link anchorParent}): the entry itself is never followed, and a path
 * below the root whose directory resolves outside it is refused with
 * `out_of_bounds`, as for writes and locks.
 */
import type { Stats } from "node:fs";
import { mkdir, rename, rmdir, stat, unlink } from "node:fs/promises";
import { WorkspaceError, workspaceErrorFromErrno } from "@agent-tools/core/workspace";
import path from "node:path";
import { type AnchoredParent, anchorParent } from "./anchored-parent.js";
import { mapErrno } from "./local-errors.js";

/** Runs `run` on the anchored parent of `target`, closing the descriptor after. */
async function inParent<T>(target: string, operation: string, root: string, run: (parent: AnchoredParent) => Promise<T>): Promise<T> {
  const parent = await anchorParent(target, operation, root);
  try {
    return await mapErrno(operation, target, () => run(parent));
  } finally {
    parent.directory.close();
  }
}

const entryOf = ({ directory, name }: AnchoredParent) => directory.entry(name);

/** Removes a file or symlink (a directory: `is_a_directory`). */
export function unlinkLocal(target: string, root: string): Promise<void> {
  return inParent(target, "unlink", root, (parent) => unlink(entryOf(parent)));
}

/** Removes an empty directory (a symlink to one: `not_a_directory`). */
export function rmdirLocal(target: string, root: string): Promise<void> {
  return inParent(target, "rmdir", root, (parent) => rmdir(entryOf(parent)));
}

/** Renames `from` to `to`, both reached through their parents' descriptors. */
export async function renameLocal(from: string, to: string, root: string): Promise<void> {
  const source = await anchorParent(from, "rename", root);
  try {
    await inParent(to, "rename", root, (destination) => rename(entryOf(source), entryOf(destination)));
  } finally {
    source.directory.close();
  }
}

/**
 * True when a directory is at `target` (following symlinks), false when
 * nothing is; rejects with `exists` when something else is there.
 */
async function isExistingDirectory(target: string): Promise<boolean> {
  let stats: Stats;
  try {
    stats = await stat(target);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return false;
    throw workspaceErrorFromErrno(error, "mkdir", target);
  }
  if (stats.isDirectory()) return true;
  throw new WorkspaceError("exists", `mkdir ${target}: it exists and is not a directory.`, { path: target, operation: "mkdir", platformCode: "EEXIST" });
}

/**
 * Creates a directory; `recursive` creates the missing parents one at a
 * time (each through its parent's descriptor) and accepts an existing
 * directory.
 */
export async function mkdirLocal(target: string, root: string, recursive: boolean): Promise<void> {
  const normal = path.resolve("/", target);
  if (!recursive) return inParent(normal, "mkdir", root, (parent) => mkdir(entryOf(parent)));
  const missing: string[] = [];
  for (let current = normal; !(await isExistingDirectory(current)); current = path.dirname(current)) {
    missing.unshift(current);
    if (current === "/") break;
  }
  for (const directory of missing) {
    await inParent(directory, "mkdir", root, async (parent) => {
      try {
        await mkdir(entryOf(parent));
      } catch (error) {
        // Created meanwhile by someone else: fine for a recursive mkdir, if it is a directory.
        if ((error as { code?: string }).code !== "EEXIST" || !(await isExistingDirectory(directory).catch(() => false))) throw error;
      }
    });
  }
}
