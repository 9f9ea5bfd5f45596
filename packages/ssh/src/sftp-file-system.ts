/**
 * The Workspace file system over SFTP (see {@link SftpFileSystem}).
 */
import { randomBytes } from "node:crypto";
import { posix } from "node:path";
import {
  WorkspaceError,
  type WorkspaceDirectoryEntry,
  type WorkspaceFileSystem,
  type WorkspaceLock,
  type WorkspaceLockOptions,
  type WorkspaceReadRange,
  type WorkspaceStats,
  type WorkspaceWriteOptions,
} from "@agent-tools/core/workspace";
import type { SFTPWrapper, Stats } from "ssh2";
import type { SshConnection } from "./connection/ssh-connection.js";
import { entryType, type SftpCalls, sftpCalls, wasNeverSent } from "./sftp/sftp-calls.js";
import { diagnosePath, mapSftpError, SFTP_STATUS, sftpError, sftpStatus, typeOf } from "./sftp/sftp-errors.js";
import { acquireSftpLock, type HeldSftpLock, type LockFiles, sftpLockFiles } from "./sftp/sftp-lock.js";
import { readPath } from "./sftp/sftp-read.js";
import { writeFileAtomicSftp } from "./sftp/sftp-write.js";

function toStats(stats: Stats): WorkspaceStats {
  return { type: entryType(stats), size: stats.size, mtimeMs: stats.mtime * 1_000, mode: stats.mode & 0o7777 };
}

function checkAbsolute(path: string, operation: string): void {
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("\0")) {
    throw new WorkspaceError(
      "io",
      `${operation}: the path must be an absolute POSIX path without NUL bytes, got ${JSON.stringify(String(path)).slice(0, 200)}.`,
      {
        operation,
      },
    );
  }
}

/** Options of {@link SftpFileSystem} (internal; hosts set `sftpTimeoutMs` on the connection). */
export interface SftpFileSystemOptions {
  /** Overrides the connection's `sftpTimeoutMs` for this file system. */
  readonly timeoutMs?: number;
  /** Test seam: runs between a read's type check and its open (to plant a FIFO there deterministically). */
  readonly afterReadTypeCheck?: (path: string) => Promise<void>;
  /** The lock files' steps of a lock on `path` (the anchored helper's); SFTP by path when absent. */
  readonly lockFiles?: (path: string) => LockFiles;
}

/**
 * A {@link WorkspaceFileSystem} on the SFTP session of an
 * {@link SshConnection}: paths are absolute paths of the remote machine.
 * Status codes become the port's `WorkspaceError` codes (ambiguous SFTP v3
 * statuses are told apart by looking at the path); `writeFileAtomic` is a
 * temporary file plus `posix-rename@openssh.com`; `lock` is a lock file
 * beside the target (see `sftp/sftp-lock.ts` for stale locks); reads are
 * ranged and pipelined. Every SFTP request has a deadline (the
 * connection's `sftpTimeoutMs`): past it the call rejects (`unsupported` for
 * an open, which a FIFO blocks; `io` otherwise) and the stuck session is
 * abandoned, so the next call gets a new one. A lost connection is reopened
 * by the next call; a call that meets it is run once more on the new one
 * when that is safe: the reads (stat, lstat, readFile, readStream before
 * its first chunk, readdir, realpath, readlink) always, writeFileAtomic of
 * bytes (not of a stream) while nothing was renamed or linked onto the
 * target (each attempt writes a fresh temporary file), and any call whose
 * request had not been sent. Otherwise (rename, unlink, mkdir, rmdir, a
 * write past its rename) it rejects with `connection`, never replayed
 * blindly. After `close()` every call rejects with `closed`.
 *
 * Needs an OpenSSH-compatible SFTP server (the `posix-rename`, `hardlink`
 * and `fsync` extensions; without `posix-rename` a replacing write is
 * `unsupported`).
 */
export class SftpFileSystem implements WorkspaceFileSystem {
  readonly #connection: SshConnection;
  readonly #clientId = randomBytes(8).toString("hex");
  readonly #locks = new Set<HeldSftpLock>();
  #closed = false;

  readonly #options: SftpFileSystemOptions;

  constructor(connection: SshConnection, options: SftpFileSystemOptions = {}) {
    this.#connection = connection;
    this.#options = options;
  }

  /** Releases the locks this file system holds; later calls reject with `closed`. Does not close the connection. */
  async close(): Promise<void> {
    if (this.#closed) return;
    const held = [...this.#locks];
    await Promise.allSettled(held.map((lock) => lock.release()));
    this.#closed = true;
  }

  async #calls(operation: string, path: string): Promise<SftpCalls> {
    if (this.#closed || this.#connection.closed) throw sftpError("closed", operation, path, undefined, `${this.#connection.label} is closed`);
    checkAbsolute(path, operation);
    try {
      return this.#wrap(await this.#connection.sftp());
    } catch (error) {
      if (error instanceof WorkspaceError) throw error;
      throw sftpError("connection", operation, path, error);
    }
  }

  /**
   * Runs `body` on the SFTP session; on a `connection` failure (the
   * connection dropped before or during the call) runs it once more on a
   * fresh session when that is safe: always for an `idempotent` call, and
   * for any call whose failed request was never sent (the session was
   * already closed when it started). `replayable` (given the failure) may
   * allow more: a write that renamed nothing yet.
   */
  async #retrying<T>(operation: string, path: string, idempotent: boolean, body: (calls: SftpCalls) => Promise<T>, replayable?: () => boolean): Promise<T> {
    const first = await this.#calls(operation, path);
    try {
      return await body(first);
    } catch (error) {
      if (!(error instanceof WorkspaceError) || error.code !== "connection" || this.#closed || this.#connection.closed) throw error;
      if (!idempotent && !wasNeverSent(error) && !(replayable?.() ?? false)) throw error;
      // The dropped session may not be noticed yet (the client's close event follows): never reuse it.
      this.#connection.abandonSftp(first.session);
      return body(await this.#calls(operation, path));
    }
  }

  async #run<T>(
    operation: string,
    path: string,
    run: (calls: SftpCalls) => Promise<T>,
    options: Parameters<typeof mapSftpError>[4] = {},
    idempotent = false,
  ): Promise<T> {
    return this.#retrying(operation, path, idempotent, async (calls) => {
      try {
        return await run(calls);
      } catch (error) {
        throw await mapSftpError(calls, error, operation, path, options);
      }
    });
  }

  stat(path: string): Promise<WorkspaceStats> {
    return this.#run("stat", path, async (calls) => toStats(await calls.stat(path)), {}, true);
  }

  lstat(path: string): Promise<WorkspaceStats> {
    return this.#run("lstat", path, async (calls) => toStats(await calls.lstat(path)), { followLast: false }, true);
  }

  readFile(path: string, range?: WorkspaceReadRange): Promise<Buffer> {
    return this.#retrying("readFile", path, true, async (calls) => {
      const parts: Buffer[] = [];
      for await (const chunk of readPath(calls, path, range, "readFile", this.#options.afterReadTypeCheck)) parts.push(chunk);
      return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    });
  }

  async *readStream(path: string, range?: WorkspaceReadRange): AsyncIterable<Buffer> {
    // Retried only until the first chunk: after it the caller has bytes of the file as it was.
    const first = await this.#retrying("readStream", path, true, async (calls) => {
      const stream = readPath(calls, path, range, "readStream", this.#options.afterReadTypeCheck);
      return { stream, head: await stream.next() };
    });
    const { stream, head } = first;
    try {
      if (head.done) return;
      yield head.value;
      yield* stream;
    } finally {
      // Closes the handle when the caller stops early (a finished stream ignores it).
      await stream.return(undefined);
    }
  }

  async writeFileAtomic(path: string, data: Uint8Array | AsyncIterable<Uint8Array>, options?: WorkspaceWriteOptions): Promise<void> {
    // Replayed after a drop only with bytes in hand (a stream is spent) and while nothing was renamed or
    // linked onto the target: each attempt writes its own fresh temporary file, so a replay is a new write.
    let touchedTarget = false;
    const replayable = () => data instanceof Uint8Array && !touchedTarget;
    await this.#retrying(
      "writeFileAtomic",
      path,
      false,
      (calls) => {
        const watched: SftpCalls = {
          ...calls,
          open: (at, flags, attributes) => {
            if (at === path) touchedTarget = true;
            return calls.open(at, flags, attributes);
          },
          posixRename: (from, to) => {
            touchedTarget = true;
            return calls.posixRename(from, to);
          },
          hardlink: (from, to) => {
            touchedTarget = true;
            return calls.hardlink(from, to);
          },
        };
        return writeFileAtomicSftp(watched, path, data, options);
      },
      replayable,
    );
  }

  rename(from: string, to: string): Promise<void> {
    checkAbsolute(to, "rename");
    return this.#run(
      "rename",
      from,
      async (calls) => {
        if (!calls.hasExtension("posix-rename@openssh.com"))
          throw sftpError("unsupported", "rename", from, undefined, "the SFTP server has no posix-rename@openssh.com");
        try {
          await calls.posixRename(from, to);
        } catch (error) {
          // The source is fine: the problem is on the destination's side.
          if (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE && (await typeOf(calls, from)) !== undefined) {
            throw await mapSftpError(calls, error, "rename", to, { followLast: false });
          }
          throw error;
        }
      },
      { followLast: false },
    );
  }

  unlink(path: string): Promise<void> {
    return this.#run("unlink", path, (calls) => calls.unlink(path), {
      followLast: false,
      refine: async (code) => ((code === "io" || code === "permission_denied") && (await this.#typeWith(path)) === "directory" ? "is_a_directory" : undefined),
    });
  }

  async mkdir(path: string, options: { readonly recursive?: boolean } = {}): Promise<void> {
    await this.#retrying("mkdir", path, false, (calls) => this.#mkdir(calls, path, options.recursive === true));
  }

  async #mkdir(calls: SftpCalls, path: string, recursive: boolean): Promise<void> {
    try {
      await calls.mkdir(path);
      return;
    } catch (error) {
      const status = sftpStatus(error);
      if (status === SFTP_STATUS.FAILURE || status === SFTP_STATUS.PERMISSION_DENIED) {
        const type = await typeOf(calls, path);
        if (type !== undefined) {
          if (recursive && (type === "directory" || (type === "symlink" && (await calls.stat(path).then(entryType, () => undefined)) === "directory"))) return;
          throw sftpError("exists", "mkdir", path, error, "already exists");
        }
      }
      if (recursive && status === SFTP_STATUS.NO_SUCH_FILE && (await diagnosePath(calls, posix.dirname(path))) === "not_found" && path !== "/") {
        await this.#mkdir(calls, posix.dirname(path), true);
        return this.#mkdir(calls, path, true);
      }
      throw await mapSftpError(calls, error, "mkdir", path, { followLast: false });
    }
  }

  rmdir(path: string): Promise<void> {
    return this.#run("rmdir", path, (calls) => calls.rmdir(path), {
      followLast: false,
      refine: async (code) => {
        const type = await this.#typeWith(path);
        if (type !== undefined && type !== "directory") return "not_a_directory";
        if (code === "io" && type === "directory") return "not_empty";
        return undefined;
      },
    });
  }

  readdir(path: string): Promise<WorkspaceDirectoryEntry[]> {
    return this.#run(
      "readdir",
      path,
      async (calls) => {
        try {
          const entries = await calls.readdir(path);
          return entries
            .filter((entry) => entry.filename !== "." && entry.filename !== "..")
            .map((entry) => ({ name: entry.filename, type: entryType(entry.attrs) }));
        } catch (error) {
          // OpenSSH reports opendir's ENOTDIR as "no such file".
          if (sftpStatus(error) === SFTP_STATUS.NO_SUCH_FILE && (await calls.stat(path).then(entryType, () => undefined)) !== undefined) {
            throw sftpError("not_a_directory", "readdir", path, error, "not a directory");
          }
          throw error;
        }
      },
      {},
      true,
    );
  }

  realpath(path: string): Promise<string> {
    return this.#run(
      "realpath",
      path,
      async (calls) => {
        const resolved = await calls.realpath(path);
        // Some servers resolve a missing last component: the port's realpath needs the path to exist.
        await calls.stat(resolved);
        return resolved;
      },
      {},
      true,
    );
  }

  readlink(path: string): Promise<string> {
    return this.#run(
      "readlink",
      path,
      async (calls) => {
        try {
          return await calls.readlink(path);
        } catch (error) {
          const type = await typeOf(calls, path);
          if (type !== undefined && type !== "symlink") throw sftpError("io", "readlink", path, error, "not a symbolic link");
          throw error;
        }
      },
      { followLast: false },
      true,
    );
  }

  async lock(path: string, options: WorkspaceLockOptions = {}): Promise<WorkspaceLock> {
    await this.#calls("lock", path);
    const anchored = this.#options.lockFiles;
    const lock = await acquireSftpLock(
      async () => (anchored ? anchored(path) : sftpLockFiles(await this.#calls("lock", path))),
      path,
      options,
      this.#clientId,
      (released) => this.#locks.delete(released),
    );
    if (this.#closed) {
      await lock.release();
      throw sftpError("closed", "lock", path, undefined, `${this.#connection.label} is closed`);
    }
    this.#locks.add(lock);
    return lock;
  }

  async #typeWith(path: string): Promise<ReturnType<typeof entryType> | undefined> {
    return typeOf(this.#wrap(await this.#connection.sftp()), path);
  }

  /** The session's requests, each with the connection's deadline; a stuck session is abandoned. */
  #wrap(session: SFTPWrapper): SftpCalls {
    return sftpCalls(session, {
      timeoutMs: this.#options.timeoutMs ?? this.#connection.sftpTimeoutMs,
      onTimeout: () => this.#connection.abandonSftp(session),
    });
  }
}
