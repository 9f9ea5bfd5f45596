/**
 * Ranged reads over SFTP: the path is checked (a directory is
 * `is_a_directory`, a FIFO or device `unsupported`) and opened, then read in
 * 64 KiB requests, up to eight in flight (one at first, doubling after
 * each full answer), so a long file streams at the link's bandwidth rather than one round trip per chunk. Chunks come out in file
 * order; a read without an end stops at the end of the opened file (its
 * size, asked for alongside the reads, or an empty answer).
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

/**
 * Opens `path` for reading after a `stat`: a directory is `is_a_directory`,
 * a FIFO, socket or device `unsupported` (opening a FIFO would block the
 * SFTP server, which serves one request at a time).
 */
export async function openForRead(calls: SftpCalls, path: string, operation: string, afterTypeCheck?: (path: string) => Promise<void>): Promise<Buffer> {
  let type: ReturnType<typeof entryType>;
  try {
    type = entryType(await calls.stat(path));
  } catch (error) {
    throw await mapSftpError(calls, error, operation, path);
  }
  if (type === "directory") throw sftpError("is_a_directory", operation, path, undefined, "is a directory");
  if (type !== "file") throw sftpError("unsupported", operation, path, undefined, "not a regular file (a FIFO, socket or device)");
  await afterTypeCheck?.(path);
  // A FIFO swapped in after the check blocks this open: the request's deadline (sftpTimeoutMs) ends it as unsupported.
  try {
    return await calls.open(path, "r");
  } catch (error) {
    throw await mapSftpError(calls, error, operation, path);
  }
}

/**
 * Yields the bytes of `[start, end)` of an open handle in order. A short
 * read (the file shrank, or the server sent less) restarts the pipeline
 * where the data stopped; an empty read ends it.
 */
export async function* readHandle(
  calls: SftpCalls,
  handle: Buffer,
  start: number,
  end: number,
  signal?: AbortSignal,
  size?: Promise<number>,
): AsyncGenerator<Buffer> {
  let next = start;
  // One request first (a small file is one answer), then twice as many after each full answer, up to the window.
  let window = 1;
  const inflight: Pending[] = [];
  const issue = () => {
    while (inflight.length < window && next < end) {
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
      if (data.length === request.length) window = Math.min(READ_WINDOW, window * 2);
      if (data.length < request.length) {
        // The end of the file (by the size asked for with the reads, which the server answers in order), or a
        // short answer: drop the requests after it and read on from where it stopped.
        await Promise.allSettled(inflight.splice(0).map((pending) => pending.data));
        const reached = request.position + data.length;
        if (data.length === 0 || (size !== undefined && reached >= (await size))) return;
        next = reached;
      }
      issue();
    }
  } finally {
    await Promise.allSettled(inflight.map((pending) => pending.data));
  }
}

/** The `[start, end)` of a range; without `end`, up to the end of the file as it is when read. */
export function resolveRange(range: WorkspaceReadRange | undefined): { start: number; end: number } {
  const start = Math.max(0, Math.floor(range?.start ?? 0));
  const end = range?.end === undefined ? Number.POSITIVE_INFINITY : Math.max(start, Math.floor(range.end));
  return { start, end };
}

/** Streams a range of `path` (see {@link readHandle}); the handle is closed when the stream ends or is abandoned. */
export async function* readPath(
  calls: SftpCalls,
  path: string,
  range: WorkspaceReadRange | undefined,
  operation: string,
  afterTypeCheck?: (path: string) => Promise<void>,
): AsyncGenerator<Buffer> {
  range?.signal?.throwIfAborted();
  const handle = await openForRead(calls, path, operation, afterTypeCheck);
  try {
    const { start, end } = resolveRange(range);
    // Asked for before the reads: a file replaced by rename after the open is still the opened one.
    const size = calls.fstat(handle).then(
      (stats) => stats.size,
      () => Number.POSITIVE_INFINITY,
    );
    try {
      yield* readHandle(calls, handle, start, end, range?.signal, size);
    } catch (error) {
      if ((error as Error)?.name === "AbortError" || range?.signal?.aborted) throw error;
      throw await mapSftpError(calls, error, operation, path);
    }
  } finally {
    await calls.close(handle).catch(() => undefined);
  }
}
