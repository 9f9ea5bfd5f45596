import { constants } from "node:fs";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import type { AnchoredDirectory } from "./anchored-directory.js";
import { temporaryName } from "./sidecar-names.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Replaces the entry `name` of a held directory atomically: writes a
 * temporary file beside it (created with O_EXCL | O_NOFOLLOW), gives it
 * `mode` (the mode of the file being replaced), then renames it over the
 * target, both through the held directory, so a directory swapped on the
 * path meanwhile cannot redirect the write. Readers see the old or the new
 * content, never a mix; a crash leaves the old file and at most a temporary
 * file, which listings hide and the next writer of the file sweeps.
 *
 * `duringWrite` runs on the main thread while the write system call is in
 * flight on libuv's thread pool (e.g. hashing the new content), so the two
 * overlap; its result is returned. `renamed` runs right after the rename,
 * before the temporary descriptor is closed (e.g. `fstatSync(fd)` for the
 * new file's mtime, ctime and inode, which are final only after the rename).
 *
 * @example
 * const directory = anchorDirectory("/repo");
 * await writeFileAtomic(directory, "a.txt", Buffer.from("hi\n"), 0o644);
 */
export async function writeFileAtomic<T = undefined>(
  directory: AnchoredDirectory,
  name: string,
  data: Uint8Array | readonly Buffer[],
  mode?: number,
  duringWrite?: () => T,
  renamed?: (fd: number) => void,
): Promise<T> {
  const temporary = directory.entry(temporaryName(name));
  const handle = await open(temporary, CREATE_FLAGS, mode ?? 0o666);
  let done = false;
  let result: T = undefined as T;
  try {
    // The mode is set (fchmod: open's mode is narrowed by the umask) while the data is written.
    const moding = mode !== undefined ? handle.chmod(mode) : undefined;
    const writing = Array.isArray(data) ? writeAll(handle, data as readonly Buffer[]) : handle.writeFile(data as Uint8Array);
    try {
      if (duringWrite) result = duringWrite();
    } finally {
      await Promise.all([writing, moding]);
    }
    await rename(temporary, directory.entry(name));
    done = true;
    renamed?.(handle.fd);
  } finally {
    await handle.close();
    if (!done) await unlink(temporary).catch(() => undefined);
  }
  return result;
}

async function writeAll(handle: FileHandle, pieces: readonly Buffer[]): Promise<void> {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const { bytesWritten } = await handle.writev(pieces as Buffer[]);
  if (bytesWritten < total) await handle.writeFile(Buffer.concat(pieces as Buffer[]).subarray(bytesWritten));
}

/** Number of lines in bytes, or in consecutive pieces (split inclusively of `\n`). */
export function countLines(bytes: Uint8Array | readonly Buffer[]): number {
  const pieces = Array.isArray(bytes)
    ? (bytes as readonly Buffer[])
    : [Buffer.isBuffer(bytes) ? bytes : Buffer.from((bytes as Uint8Array).buffer, (bytes as Uint8Array).byteOffset, (bytes as Uint8Array).length)];
  let count = 0;
  let last = -1;
  for (const buffer of pieces) {
    if (buffer.length === 0) continue;
    for (let index = buffer.indexOf(10); index !== -1; index = buffer.indexOf(10, index + 1)) count += 1;
    last = buffer[buffer.length - 1]!;
  }
  if (last === -1) return 0;
  return last === 10 ? count : count + 1;
}

/** The first 500 characters of a text, with a note of the full length when cut. */
export function preview(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}...(${text.length} chars total)...`;
}
