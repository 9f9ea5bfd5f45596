/**
 * Reads of the local workspace: a byte range of a file, whole or streamed in
 * chunks. The file is opened non-blocking, so a FIFO planted where a file
 * was expected is refused instead of hanging the read.
 */
import { constants } from "node:fs";
import { type FileHandle, open, readlink } from "node:fs/promises";
import nodePath from "node:path";
import { SdkError } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceReadRange, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { mapErrno, throwIfAborted } from "./local-errors.js";

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
/** Bytes per read of a stream (and per step of a ranged read). */
const CHUNK_BYTES = 256 * 1024;

interface Bounds {
  readonly start: number;
  /** One past the last byte wanted; Infinity = to the end of the file. */
  readonly end: number;
}

function boundsOf(range: WorkspaceReadRange | undefined, operation: string): Bounds {
  const start = range?.start ?? 0;
  const end = range?.end ?? Number.POSITIVE_INFINITY;
  if (!Number.isSafeInteger(start) || start < 0)
    throw new SdkError("invalid_options", `${operation}: range.start must be a non-negative integer (got ${String(range?.start)}).`);
  if (end !== Number.POSITIVE_INFINITY && (!Number.isSafeInteger(end) || end < 0)) {
    throw new SdkError("invalid_options", `${operation}: range.end must be a non-negative integer (got ${String(range?.end)}).`);
  }
  return { start, end: Math.max(start, end) };
}

/**
 * Refuses (`out_of_bounds`) an opened descriptor of a path below `root` that
 * is really outside it: a symlink on the way (a `..` after one, or a folder
 * swapped for a link after the caller's `resolveInWorkspace`) led the open
 * out. Checked on the descriptor itself (`/proc/self/fd`), so no swap after
 * the check can change what is read. Without `/proc` nothing is checked
 * (`anchoredOpens` is false there).
 */
export async function assertOpenedInside(fd: number, path: string, root: string, operation: string): Promise<void> {
  if (process.platform !== "linux" || !isWithinWorkspacePath(root, nodePath.resolve("/", path))) return;
  const link = await readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
  if (link === undefined) return;
  const opened = link.replace(/ \(deleted\)$/, "");
  if (isWithinWorkspacePath(root, opened)) return;
  throw new WorkspaceError("out_of_bounds", `${operation} ${path}: it resolves to ${opened}, outside the workspace root ${root}.`, {
    path,
    operation,
    canonicalPath: opened,
  });
}

/** Opens `path` for reading and refuses what is not a regular file, or what lies outside `root` though named below it. */
async function openRegular(path: string, operation: string, root: string): Promise<FileHandle> {
  const handle = await mapErrno(operation, path, () => open(path, READ_FLAGS));
  try {
    await assertOpenedInside(handle.fd, path, root, operation);
    const stats = await mapErrno(operation, path, () => handle.stat());
    if (stats.isDirectory())
      throw new WorkspaceError("is_a_directory", `${operation} ${path}: it is a directory.`, { path, operation, platformCode: "EISDIR" });
    if (!stats.isFile()) throw new WorkspaceError("unsupported", `${operation} ${path}: not a regular file (a FIFO, socket or device).`, { path, operation });
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/** Reads up to `length` bytes at `position`; a short result means the end of the file. */
async function readAt(handle: FileHandle, position: number, length: number, path: string, operation: string): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await mapErrno(operation, path, () => handle.read(buffer, filled, length - filled, position + filled));
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

/**
 * The bytes of `range` of the file at `path` (the whole file by default),
 * following symlinks, but never out of `root` for a path below it.
 */
export async function readLocalFile(path: string, root: string, range?: WorkspaceReadRange): Promise<Buffer> {
  const operation = "readFile";
  const { start, end } = boundsOf(range, operation);
  throwIfAborted(range?.signal);
  const handle = await openRegular(path, operation, root);
  try {
    if (start === 0 && end === Number.POSITIVE_INFINITY) {
      return await mapErrno(operation, path, () => handle.readFile(range?.signal ? { signal: range.signal } : {}));
    }
    const chunks: Buffer[] = [];
    let position = start;
    while (position < end) {
      throwIfAborted(range?.signal);
      const wanted = Math.min(CHUNK_BYTES * 4, end - position);
      const chunk = await readAt(handle, position, wanted, path, operation);
      chunks.push(chunk);
      position += chunk.length;
      if (chunk.length < wanted) break;
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Streams `range` of the file at `path` in chunks, following symlinks (never out of `root` for a path below it); aborting stops it with an AbortError. */
export async function* streamLocalFile(path: string, root: string, range?: WorkspaceReadRange): AsyncGenerator<Buffer> {
  const operation = "readStream";
  const { start, end } = boundsOf(range, operation);
  throwIfAborted(range?.signal);
  const handle = await openRegular(path, operation, root);
  try {
    let position = start;
    while (position < end) {
      throwIfAborted(range?.signal);
      const wanted = Math.min(CHUNK_BYTES, end - position);
      const chunk = await readAt(handle, position, wanted, path, operation);
      if (chunk.length > 0) yield chunk;
      position += chunk.length;
      if (chunk.length < wanted) break;
    }
  } finally {
    await handle.close();
  }
}
