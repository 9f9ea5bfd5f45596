/**
 * Puts a recorded state back at a path, atomically per path: a file is
 * written to a temporary file beside the target (created with O_EXCL, given
 * the recorded permission bits, fsynced), then renamed over it; a symlink is
 * created under a temporary name and renamed over; the directory is fsynced
 * after the rename. A process killed at any moment therefore leaves the path
 * holding either its state before the rewind or the restored one, never a
 * mix, plus at most a temporary file that the next rewind (or the next
 * Write/Edit of that file) sweeps.
 *
 * Temporary files are named `.<name>.<pid>.<8 hex>.tmp`, as the file tools
 * name theirs, so listings hide them.
 */
import type { ContainedTree } from "@agent-tools/file-io/internal";
import type { FileImage } from "../domain/file-image.js";
import { sha256Hex } from "./read-file-image.js";

const TEMP_PATTERN = /^\.(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;
/** Longest stem kept in a temporary name (file systems allow 255 bytes a name). */
const STEM_MAX_BYTES = 200;

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** The stem of `name`'s temporary files: the name, or a prefix and a hash of a long one. */
function stem(name: string): string {
  if (Buffer.byteLength(name) <= STEM_MAX_BYTES) return name;
  let prefix = name;
  while (Buffer.byteLength(prefix) > STEM_MAX_BYTES - 13) prefix = prefix.slice(0, -1);
  return `${prefix}~${sha256Hex(name).slice(0, 12)}`;
}

/** `target` (an absolute, canonical path) relative to the file-system root, the form a tree at `/` takes. */
export function fromRoot(target: string): string {
  return target.replace(/^\/+/, "");
}

/** True when no process `pid` runs (a temporary file of it is abandoned). */
function processGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return codeOf(error) === "ESRCH";
  }
}

/**
 * Removes temporary files of the given names in `directory` whose writer is
 * gone (a rewind or a file tool killed mid-write). The directory is reached
 * through `tree` (no symlink followed on the way). Never throws.
 */
export async function sweepAbandonedTemporaries(tree: ContainedTree, directory: string, names: ReadonlySet<string>): Promise<void> {
  let entries: string[];
  try {
    entries = (await tree.readdir(fromRoot(directory))).map((entry) => entry.name);
  } catch {
    return;
  }
  const stems = new Set([...names].map(stem));
  for (const entry of entries) {
    const match = TEMP_PATTERN.exec(entry);
    if (match === null || !stems.has(match[1]!) || !processGone(Number(match[2]))) continue;
    await tree.remove(fromRoot(`${directory}/${entry}`)).catch(() => undefined);
  }
}

/**
 * Makes `target` hold `image` (a file, symlink or directory; not absence,
 * see {@link removeEntry}), through `tree` (rooted at `/`): no directory on
 * the way may be a symlink (refused with `out_of_bounds`, so a folder swapped
 * for a symlink since the checkpoint cannot redirect the restore), and a
 * symlink at the target itself is replaced, never written through. Missing
 * parent directories are created. Files and symlinks are written to a
 * temporary name, fsynced and renamed over the target, then the directory
 * is fsynced.
 */
export async function restoreImage(tree: ContainedTree, target: string, image: FileImage): Promise<void> {
  const relative = fromRoot(target);
  if (image.kind === "directory") {
    const existing = await tree.lstat(relative);
    if (existing !== undefined && !existing.isDirectory()) await tree.remove(relative);
    if (existing === undefined || !existing.isDirectory()) {
      const parent = relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/")) : "";
      if (parent !== "") await tree.mkdir(parent, { recursive: true });
      await tree.mkdir(relative, { mode: image.mode });
    }
    // mkdir's mode is narrowed by the umask; the recorded bits are set exactly.
    await tree.chmod(relative, image.mode);
    return;
  }
  if (image.kind !== "file" && image.kind !== "symlink") throw new Error(`restoreImage cannot restore ${image.kind}; remove the entry instead`);
  const write = () =>
    image.kind === "symlink"
      ? tree.symlink(relative, image.linkTarget, { durable: true })
      : tree.writeFile(relative, image.content, { mode: image.mode, durable: true });
  try {
    await write();
  } catch (error) {
    // The target is a directory now (an outside change, forced): an empty one is removed first.
    if (codeOf(error) !== "EISDIR" && codeOf(error) !== "ENOTEMPTY" && codeOf(error) !== "EEXIST") throw error;
    await tree.remove(relative);
    await write();
  }
}

/** Removes `target` (a file, a symlink, or an empty directory) through `tree`; nothing there is fine. */
export async function removeEntry(tree: ContainedTree, target: string): Promise<void> {
  await tree.remove(fromRoot(target), { durable: true });
}
