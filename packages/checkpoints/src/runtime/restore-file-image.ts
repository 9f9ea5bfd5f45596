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
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { chmod, lstat, mkdir, open, readdir, rename, rmdir, symlink, unlink } from "node:fs/promises";
import path from "node:path";
import type { FileImage } from "../domain/file-image.js";
import { sha256Hex } from "./read-file-image.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
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

function temporaryPath(target: string): string {
  return path.join(path.dirname(target), `.${stem(path.basename(target))}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
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
 * gone (a rewind or a file tool killed mid-write). Never throws.
 */
export async function sweepAbandonedTemporaries(directory: string, names: ReadonlySet<string>): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch {
    return;
  }
  const stems = new Set([...names].map(stem));
  for (const entry of entries) {
    const match = TEMP_PATTERN.exec(entry);
    if (match === null || !stems.has(match[1]!) || !processGone(Number(match[2]))) continue;
    await unlink(path.join(directory, entry)).catch(() => undefined);
  }
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems do not sync directories (EINVAL): the rename itself is still atomic.
    if (codeOf(error) !== "EINVAL" && codeOf(error) !== "EISDIR") throw error;
  } finally {
    await handle.close();
  }
}

async function writeTemporaryFile(temporary: string, image: FileImage): Promise<void> {
  const handle = await open(temporary, CREATE_FLAGS, 0o600);
  try {
    await handle.writeFile(image.content);
    await handle.chmod(image.mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/** Renames `temporary` over `target`; a target that is a directory (an outside change, forced) is removed first when empty. */
async function renameOver(temporary: string, target: string): Promise<void> {
  try {
    await rename(temporary, target);
  } catch (error) {
    if (codeOf(error) === "EISDIR" || codeOf(error) === "ENOTEMPTY" || codeOf(error) === "EEXIST") {
      try {
        await rmdir(target);
        await rename(temporary, target);
        return;
      } catch (second) {
        await unlink(temporary).catch(() => undefined);
        throw second;
      }
    }
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Makes `target` hold `image` (a file, symlink or directory; not absence,
 * see {@link removeEntry}). Missing parent directories are created.
 */
export async function restoreImage(target: string, image: FileImage): Promise<void> {
  const directory = path.dirname(target);
  await mkdir(directory, { recursive: true });
  if (image.kind === "directory") {
    const existing = await lstat(target).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory()) await unlink(target);
    if (existing === undefined || !existing.isDirectory()) await mkdir(target, { mode: image.mode });
    // mkdir's mode is narrowed by the umask; the recorded bits are set exactly.
    await chmod(target, image.mode);
    await syncDirectory(directory);
    return;
  }
  const temporary = temporaryPath(target);
  if (image.kind === "symlink") await symlink(image.linkTarget, temporary);
  else if (image.kind === "file") await writeTemporaryFile(temporary, image);
  else throw new Error(`restoreImage cannot restore ${image.kind}; remove the entry instead`);
  await renameOver(temporary, target);
  await syncDirectory(directory);
}

/** Removes `target` (a file, a symlink, or an empty directory); nothing there is fine. */
export async function removeEntry(target: string): Promise<void> {
  const existing = await lstat(target).catch(() => undefined);
  if (existing === undefined) return;
  if (existing.isDirectory()) await rmdir(target);
  else await unlink(target);
  await syncDirectory(path.dirname(target));
}
