/**
 * The atomic write over SFTP: the bytes go to a dotted temporary file beside
 * the target (created exclusively), which is flushed (`fsync@openssh.com`)
 * and renamed over the target with `posix-rename@openssh.com`, so a reader
 * sees the old file or the new one. An exclusive write links the temporary
 * file to the target instead (`hardlink@openssh.com`, which fails when the
 * name exists) and removes the temporary name: still atomic, and never
 * replacing anything (a server without that extension gets the bytes
 * written straight into the target opened with "wx": exclusive, but a
 * reader may see it partly written). The mode of a replaced regular file is kept
 * (`fchmod` before the rename); a symlink at the path is replaced, never
 * written through.
 */
import { posix } from "node:path";
import type { WorkspaceWriteOptions } from "@agent-tools/core/workspace";
import { entryType, type SftpCalls } from "./sftp-calls.js";
import { diagnosePath, mapSftpError, SFTP_STATUS, sftpError, sftpStatus, typeOf } from "./sftp-errors.js";
import { temporaryName } from "./sidecar-names.js";

const OPERATION = "writeFileAtomic";
/** Bytes per write request. */
const WRITE_CHUNK_BYTES = 64 * 1024;
/** Write requests in flight. */
const WRITE_WINDOW = 8;
/** Mode of a new file when none is given and none is kept (the server's umask applies). */
const DEFAULT_MODE = 0o644;

/** Writes pieces at increasing offsets with a bounded number of requests in flight. */
class WritePipeline {
  private readonly inflight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;
  private position = 0;

  constructor(
    private readonly calls: SftpCalls,
    private readonly handle: Buffer,
  ) {}

  async push(bytes: Buffer, signal?: AbortSignal): Promise<void> {
    for (let offset = 0; offset < bytes.length; offset += WRITE_CHUNK_BYTES) {
      signal?.throwIfAborted();
      while (this.inflight.size >= WRITE_WINDOW) await Promise.race(this.inflight);
      if (this.failure) throw this.failure.error;
      const piece = bytes.subarray(offset, offset + WRITE_CHUNK_BYTES);
      const request = this.calls.write(this.handle, piece, this.position).then(
        () => {
          this.inflight.delete(request);
        },
        (error: unknown) => {
          this.inflight.delete(request);
          this.failure ??= { error };
        },
      );
      this.inflight.add(request);
      this.position += piece.length;
    }
  }

  async flush(): Promise<void> {
    await Promise.all(this.inflight);
    if (this.failure) throw this.failure.error;
  }
}

function asBuffer(chunk: Uint8Array, copy: boolean): Buffer {
  if (copy) return Buffer.from(chunk);
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

/** What is at the target now: its type and mode, or nothing (its directory exists). */
async function inspectTarget(calls: SftpCalls, path: string): Promise<{ type: ReturnType<typeof entryType>; mode: number } | undefined> {
  try {
    const stats = await calls.lstat(path);
    return { type: entryType(stats), mode: stats.mode & 0o7777 };
  } catch (error) {
    if (sftpStatus(error) !== SFTP_STATUS.NO_SUCH_FILE) throw await mapSftpError(calls, error, OPERATION, path, { followLast: false });
    const problem = await diagnosePath(calls, posix.dirname(path));
    if (problem !== undefined) throw sftpError(problem, OPERATION, path, error, problem === "not_found" ? "the directory does not exist" : undefined);
    return undefined;
  }
}

/** Writes `data` to `path` atomically (see the module comment). */
export async function writeFileAtomicSftp(
  calls: SftpCalls,
  path: string,
  data: Uint8Array | AsyncIterable<Uint8Array>,
  options: WorkspaceWriteOptions = {},
): Promise<void> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const existing = await inspectTarget(calls, path);
  if (existing?.type === "directory") throw sftpError("is_a_directory", OPERATION, path, undefined, "is a directory");
  if (options.exclusive && existing !== undefined) throw sftpError("exists", OPERATION, path, undefined, "already exists");
  const mode = options.mode ?? (existing?.type === "file" ? existing.mode : undefined);
  const direct = options.exclusive === true && !calls.hasExtension("hardlink@openssh.com");
  const temporary = direct ? path : posix.join(posix.dirname(path), temporaryName(posix.basename(path)));
  let handle: Buffer | undefined;
  try {
    handle = await calls.open(temporary, "wx", { mode: mode ?? DEFAULT_MODE });
  } catch (error) {
    throw await mapSftpError(calls, error, OPERATION, path, { followLast: false });
  }
  let created = true;
  try {
    const pipeline = new WritePipeline(calls, handle);
    if (data instanceof Uint8Array) await pipeline.push(asBuffer(data, false), signal);
    else for await (const chunk of data) await pipeline.push(asBuffer(chunk, true), signal);
    await pipeline.flush();
    signal?.throwIfAborted();
    // The server's umask shaped the create; an explicit or kept mode is set exactly. The fchmod and
    // the fsync go out together (one round trip): neither needs the other's answer.
    const synced = calls.hasExtension("fsync@openssh.com");
    await Promise.all([mode === undefined ? undefined : calls.fchmod(handle, mode), synced ? calls.fsync(handle) : undefined]);
    signal?.throwIfAborted();
    // Once the bytes are on disk, the close and the rename go out together (renaming an open file is
    // fine); without fsync the close must succeed first, as it may be what flushes them.
    const closing = calls.close(handle);
    handle = undefined;
    if (synced) closing.catch(() => undefined);
    else await closing;
    if (options.exclusive && !direct) await linkExclusive(calls, temporary, path);
    else if (!direct) await replace(calls, temporary, path);
    created = false;
    await closing.catch(() => undefined); // answered before the rename was
  } catch (error) {
    if (handle !== undefined) await calls.close(handle).catch(() => undefined);
    if (created) await calls.unlink(temporary).catch(() => undefined);
    if ((error as Error)?.name === "AbortError" || signal?.aborted) throw signal?.reason ?? error;
    throw await mapSftpError(calls, error, OPERATION, path, { followLast: false });
  }
}

async function replace(calls: SftpCalls, temporary: string, path: string): Promise<void> {
  if (!calls.hasExtension("posix-rename@openssh.com")) {
    throw sftpError("unsupported", OPERATION, path, undefined, "the SFTP server has no posix-rename@openssh.com, so a file cannot be replaced atomically");
  }
  try {
    await calls.posixRename(temporary, path);
  } catch (error) {
    if (sftpStatus(error) === SFTP_STATUS.FAILURE && (await typeOf(calls, path)) === "directory") {
      throw sftpError("is_a_directory", OPERATION, path, error, "is a directory");
    }
    throw error;
  }
}

async function linkExclusive(calls: SftpCalls, temporary: string, path: string): Promise<void> {
  try {
    await calls.hardlink(temporary, path);
  } catch (error) {
    if (sftpStatus(error) === SFTP_STATUS.FAILURE && (await typeOf(calls, path)) !== undefined)
      throw sftpError("exists", OPERATION, path, error, "already exists");
    throw error;
  }
  await calls.unlink(temporary).catch(() => undefined);
}
