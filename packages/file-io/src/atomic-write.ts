import { constants, fstatSync } from "node:fs";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import type { AnchoredDirectory } from "./anchored-directory.js";
import { temporaryName } from "./sidecar-names.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * The temporary file of a coming {@link writeFileAtomic}, created ahead of
 * time (see {@link prepareTemporary}); `discard` removes it unless a write
 * took it over.
 */
export interface PreparedTemporary {
  /** Closes and removes the file unless a write took it over; never rejects. */
  discard(): Promise<void>;
}

interface Temporary extends PreparedTemporary {
  readonly directory: AnchoredDirectory;
  readonly name: string;
  /** The opened file; rejects as the open did, for the write to report. */
  readonly opened: Promise<{ path: string; handle: FileHandle }>;
  taken: boolean;
}

function createTemporary(directory: AnchoredDirectory, name: string, mode: number | undefined): Temporary {
  const path = directory.entry(temporaryName(name));
  const opened = open(path, CREATE_FLAGS, mode ?? 0o666).then((handle) => ({ path, handle }));
  opened.catch(() => undefined); // reported by the write that takes it, if any
  const temporary: Temporary = {
    directory,
    name,
    opened,
    taken: false,
    async discard() {
      if (temporary.taken) return;
      temporary.taken = true;
      const file = await opened.catch(() => null);
      if (!file) return;
      await file.handle.close().catch(() => undefined);
      await unlink(file.path).catch(() => undefined);
    },
  };
  return temporary;
}

/**
 * Starts creating the temporary file for a {@link writeFileAtomic} of the
 * entry `name` (with `mode`) before the new content is known, e.g. while the
 * old content is read and matched, so the write waits for one round trip to
 * the thread pool less. Pass it to `writeFileAtomic`, or `discard()` it.
 */
export function prepareTemporary(directory: AnchoredDirectory, name: string, mode?: number): PreparedTemporary {
  return createTemporary(directory, name, mode);
}

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
 * Each thread-pool round trip costs a wake-up of the main thread, which a
 * busy machine may take milliseconds to grant, so the write makes few: the
 * mode is set only when the umask narrowed it, and after the rename the
 * descriptor is closed without waiting (the file is complete and in place;
 * a failure to close it could not undo that). `prepared` is a temporary file
 * made ahead by {@link prepareTemporary} for the same directory and name.
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
  prepared?: PreparedTemporary,
): Promise<T> {
  const made = prepared as Temporary | undefined;
  const usable = made && !made.taken && made.directory === directory && made.name === name;
  if (made && !usable) await made.discard();
  const file = usable ? made : createTemporary(directory, name, mode);
  file.taken = true;
  const { path: temporary, handle } = await file.opened;
  let done = false;
  let result: T = undefined as T;
  try {
    // open's mode is narrowed by the umask: then the mode is set (fchmod) while the data is written.
    const moding = mode !== undefined && (fstatSync(handle.fd).mode & 0o7777) !== mode ? handle.chmod(mode) : undefined;
    // One writev call (FileHandle.writeFile would take a round trip per 512 KiB).
    const writing = writeAll(handle, Array.isArray(data) ? (data as readonly Uint8Array[]) : [data as Uint8Array]);
    try {
      if (duringWrite) result = duringWrite();
    } finally {
      await Promise.all([writing, moding]);
    }
    await rename(temporary, directory.entry(name));
    done = true;
    renamed?.(handle.fd);
  } finally {
    if (done) void handle.close().catch(() => undefined);
    else {
      await handle.close();
      await unlink(temporary).catch(() => undefined);
    }
  }
  return result;
}

async function writeAll(handle: FileHandle, pieces: readonly Uint8Array[]): Promise<void> {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const { bytesWritten } = await handle.writev(pieces as Uint8Array[]);
  if (bytesWritten < total) await handle.writeFile(Buffer.concat(pieces as Uint8Array[]).subarray(bytesWritten));
}
