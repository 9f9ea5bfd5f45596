/**
 * Ranged reads over SFTP: a handle is opened and checked (a directory is
 * `is_a_directory`), then read in 64 KiB requests, eight in flight, so a
 * long file streams at the link's bandwidth rather than one round trip per
 * chunk. Chunks come out in file order.
 */
import type { WorkspaceReadRange } from "@agent-tools/core/workspace";
import type { SftpCalls } from "./sftp-calls.js";
import { entryType } from "./sftp-calls.js";
import { mapSftpError, sftpError } from "./sftp-errors.js";

/** Bytes per read request (OpenSSH accepts up to 255 KiB). */
export const READ_CHUNK_BYTES = 64 * 1024;
/** Read requests in flight. */
const READ_WINDOW = 8;

interface Pending {
  readonly position: number;
  readonly length: number;
  readonly data: Promise<Buffer>;
}

/** Opens `path` for reading; rejects with the port's codes (a directory: `is_a_directory`). Returns the handle and the file's size. */
export async function openForRead(calls: SftpCalls, path: string, operation: string): Promise<{ handle: Buffer; size: number }> {
  let handle: Buffer;
  try {
    handle = await calls.open(path, "r");
  } catch (error) {
    throw await mapSftpError(calls, error, operation, path);
  }
  try {
    const stats = await calls.fstat(handle);
    if (entryType(stats) === "directory") throw sftpError("is_a_directory", operation, path, undefined, "is a directory");
    return { handle, size: stats.size };
  } catch (error) {
    await calls.close(handle).catch(() => undefined);
    throw await mapSftpError(calls, error, operation, path);
  }
}

/**
 * Yields the bytes of `[start, end)` of an open handle in order. A short
 * read (the file shrank, or the server sent less) restarts the pipeline
 * where the data stopped; an empty read ends it.
 */
export async function* readHandle(calls: SftpCalls, handle: Buffer, start: number, end: number, signal?: AbortSignal): AsyncGenerator<Buffer> {
  let next = start;
  const inflight: Pending[] = [];
  const issue = () => {
    while (inflight.length < READ_WINDOW && next < end) {
      const length = Math.min(READ_CHUNK_BYTES, end - next);
      const data = calls.read(handle, length, next);
      data.catch(() => undefined); // awaited in order below; this only silences an early rejection
      inflight.push({ position: next, length, data });
      next += length;
    }
  };
  try {
    issue();
    while (inflight.length > 0) {
      signal?.throwIfAborted();
      const request = inflight.shift() as Pending;
      const data = await request.data;
      if (data.length > 0) yield data;
      if (data.length < request.length) {
        // Drop the requests after the short one and read on from where it stopped.
        await Promise.allSettled(inflight.splice(0).map((pending) => pending.data));
        if (data.length === 0) return;
        next = request.position + data.length;
      }
      issue();
    }
  } finally {
    await Promise.allSettled(inflight.map((pending) => pending.data));
  }
}

/** The absolute `[start, end)` of a range over a file of `size` bytes. */
export function resolveRange(range: WorkspaceReadRange | undefined, size: number): { start: number; end: number } {
  const start = Math.max(0, Math.floor(range?.start ?? 0));
  const end = Math.min(size, range?.end === undefined ? size : Math.max(start, Math.floor(range.end)));
  return { start, end: Math.max(start, end) };
}

/** Streams a range of `path` (see {@link readHandle}); the handle is closed when the stream ends or is abandoned. */
export async function* readPath(calls: SftpCalls, path: string, range: WorkspaceReadRange | undefined, operation: string): AsyncGenerator<Buffer> {
  range?.signal?.throwIfAborted();
  const { handle, size } = await openForRead(calls, path, operation);
  try {
    const { start, end } = resolveRange(range, size);
    try {
      yield* readHandle(calls, handle, start, end, range?.signal);
    } catch (error) {
      if ((error as Error)?.name === "AbortError" || range?.signal?.aborted) throw error;
      throw await mapSftpError(calls, error, operation, path);
    }
  } finally {
    await calls.close(handle).catch(() => undefined);
  }
}
