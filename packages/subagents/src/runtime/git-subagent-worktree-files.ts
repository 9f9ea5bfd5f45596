/**
 * File-level comparison and copying between a worktree and the parent's
 * work tree: the already-applied check and the copy fallback of an apply.
 */
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** What a path holds: nothing, a file (bytes and executable bit) or a symbolic link (its target). */
type Entry =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly bytes: Buffer; readonly mode: number; readonly executable: boolean }
  | { readonly kind: "link"; readonly target: string };

async function readEntry(file: string): Promise<Entry> {
  let stats: Stats;
  try {
    stats = await fs.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return { kind: "missing" };
    throw error;
  }
  if (stats.isSymbolicLink()) return { kind: "link", target: await fs.readlink(file) };
  if (stats.isDirectory()) return { kind: "missing" }; // a file's path that is a directory here holds no file
  return { kind: "file", bytes: await fs.readFile(file), mode: stats.mode & 0o777, executable: (stats.mode & 0o111) !== 0 };
}

function sameEntry(left: Entry, right: Entry): boolean {
  if (left.kind === "file" && right.kind === "file") return left.executable === right.executable && left.bytes.equals(right.bytes);
  if (left.kind === "link" && right.kind === "link") return left.target === right.target;
  return left.kind === "missing" && right.kind === "missing";
}

/** True when every path holds the same thing (or nothing) in `source` and `target`. */
export async function sameContents(source: string, target: string, paths: readonly string[]): Promise<boolean> {
  for (const relative of paths) {
    if (!sameEntry(await readEntry(path.join(source, relative)), await readEntry(path.join(target, relative)))) return false;
  }
  return true;
}

/** What {@link copyChangedFiles} did. */
export interface CopyOutcome {
  readonly copiedFiles: string[];
  readonly deletedFiles: string[];
}

/**
 * Makes each path in `target` hold what it holds in `source`: copies files
 * and links that differ, deletes those `source` no longer has. Paths that
 * already match are left alone (and not reported).
 */
export async function copyChangedFiles(source: string, target: string, paths: readonly string[]): Promise<CopyOutcome> {
  const copiedFiles: string[] = [];
  const deletedFiles: string[] = [];
  for (const relative of paths) {
    const from = path.join(source, relative);
    const to = path.join(target, relative);
    const wanted = await readEntry(from);
    const present = await readEntry(to);
    if (sameEntry(wanted, present)) continue;
    if (wanted.kind === "missing") {
      await fs.rm(to, { force: true });
      deletedFiles.push(relative);
      continue;
    }
    await fs.mkdir(path.dirname(to), { recursive: true });
    if (present.kind !== "missing") await fs.rm(to, { force: true });
    if (wanted.kind === "link") await fs.symlink(wanted.target, to);
    else {
      await fs.writeFile(to, wanted.bytes);
      await fs.chmod(to, wanted.mode);
    }
    copiedFiles.push(relative);
  }
  return { copiedFiles, deletedFiles };
}

/** What some paths of a work tree held at one moment; see {@link snapshotFiles}. */
export type FileSnapshot = ReadonlyMap<string, Entry>;

/** Reads what each path holds now (files into memory), to put back with {@link restoreFiles}. */
export async function snapshotFiles(root: string, paths: readonly string[]): Promise<FileSnapshot> {
  const snapshot = new Map<string, Entry>();
  for (const relative of paths) snapshot.set(relative, await readEntry(path.join(root, relative)));
  return snapshot;
}

/** Puts each path of `snapshot` back as it was (a failed merge may have left conflict markers or half its files). */
export async function restoreFiles(root: string, snapshot: FileSnapshot): Promise<void> {
  for (const [relative, entry] of snapshot) {
    const target = path.join(root, relative);
    if (sameEntry(entry, await readEntry(target))) continue;
    await fs.rm(target, { force: true });
    if (entry.kind === "missing") continue;
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (entry.kind === "link") await fs.symlink(entry.target, target);
    else {
      await fs.writeFile(target, entry.bytes);
      await fs.chmod(target, entry.mode);
    }
  }
}
