/**
 * The cross-client lock of the SFTP file system: a lock file
 * `.<name>.agent-tools-lock` beside the target, created exclusively (open
 * flag "wx") and holding its owner as JSON (client id, local host name and
 * pid, a token). Every client of the remote machine (another connection,
 * another host) that uses this file system excludes each other through it.
 *
 * Stale locks: a holder renews its lock file every 10 s (a fresh copy
 * created exclusively and renamed over it, so its mtime, set by the
 * server's clock, stays fresh, and a symlink put in its place is replaced,
 * never written through). A lock file whose mtime is more
 * than 30 s older than the server's clock (measured once per waiter with a
 * probe file, so the two machines' clocks need not agree) is taken for the
 * leftover of a holder that died or lost its connection, and is broken: it
 * is renamed aside (only one waiter wins the rename), checked to still be
 * the stale one (else put back with a hard link), and removed.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { posix } from "node:path";
import { WorkspaceError, type WorkspaceLock, type WorkspaceLockOptions } from "@agent-tools/core/workspace";
import { entryType, type SftpCalls } from "./sftp-calls.js";
import { mapSftpError, SFTP_STATUS, sftpStatus } from "./sftp-errors.js";
import { lockFileName } from "./sidecar-names.js";

const OPERATION = "lock";
/** The port's default wait. */
const DEFAULT_TIMEOUT_MS = 10_000;
/** A lock file not rewritten for this long (server clock) is stale. */
export const STALE_LOCK_MS = 30_000;
/** How often a holder rewrites its lock file. */
export const LOCK_HEARTBEAT_MS = 10_000;
const MAX_LOCK_BYTES = 1_024;

/** A lock this client holds (the file system releases them on close). */
export interface HeldSftpLock extends WorkspaceLock {
  readonly lockFile: string;
}

/** The file steps of a lock, on SFTP (by path) or on the anchored helper (see `anchored/anchored-lock-files.ts`). */
export interface LockFiles {
  /** Creates `file` exclusively holding `content`; false when something is already there. */
  create(file: string, content: string): Promise<boolean>;
  /** The type and mtime (ms, server clock) of `file` itself (not followed), or undefined when it cannot be looked at. */
  lstat(file: string): Promise<{ readonly type: string; readonly mtimeMs: number } | undefined>;
  /** The text of `file` (its first KiB) when it is a regular file, else undefined. Never opens a FIFO. */
  readText(file: string): Promise<string | undefined>;
  /** Renames `from` to `to` (replacing it). */
  rename(from: string, to: string): Promise<void>;
  /** Hard-links `from` as `to` (fails when `to` exists). */
  link(from: string, to: string): Promise<void>;
  /** Removes `file`. */
  unlink(file: string): Promise<void>;
  /** The server's clock minus ours, in ms, measured in `directory`. */
  clockOffset(directory: string): Promise<number>;
  /** A failure of a step as the lock's `WorkspaceError` on `target`. */
  mapError(error: unknown, target: string): Promise<WorkspaceError>;
}

async function readLockFile(calls: SftpCalls, lockFile: string): Promise<string | undefined> {
  try {
    // Never open what is not a regular file: a FIFO planted there would block the SFTP server. One swapped in
    // between this check and the open still blocks it, until the open's deadline (sftpTimeoutMs) abandons the
    // session: the text is then unknown (undefined), so nothing is broken and the waiter times out as `locked`.
    if (entryType(await calls.lstat(lockFile)) !== "file") return undefined;
    const handle = await calls.open(lockFile, "r");
    try {
      return (await calls.read(handle, MAX_LOCK_BYTES, 0)).toString("utf8");
    } finally {
      await calls.close(handle).catch(() => undefined);
    }
  } catch {
    return undefined;
  }
}

async function tryCreate(calls: SftpCalls, lockFile: string, content: string): Promise<boolean> {
  let handle: Buffer;
  try {
    handle = await calls.open(lockFile, "wx", { mode: 0o644 });
  } catch (error) {
    if (sftpStatus(error) === SFTP_STATUS.FAILURE) return false;
    throw error;
  }
  try {
    await calls.write(handle, Buffer.from(content), 0);
  } finally {
    await calls.close(handle).catch(() => undefined);
  }
  return true;
}

/** The server's clock minus ours, in ms (whole seconds on SFTP), from the mtime of a probe file made in `directory`. */
async function serverClockOffset(calls: SftpCalls, directory: string): Promise<number> {
  const probe = posix.join(directory, `.agent-tools-clock-${randomBytes(6).toString("hex")}`);
  const before = Date.now();
  const handle = await calls.open(probe, "wx", { mode: 0o600 });
  try {
    const stats = await calls.fstat(handle);
    return stats.mtime * 1_000 - (before + Date.now()) / 2;
  } finally {
    await calls.close(handle).catch(() => undefined);
    await calls.unlink(probe).catch(() => undefined);
  }
}

/** The lock's file steps on an SFTP session (by path). */
export function sftpLockFiles(calls: SftpCalls): LockFiles {
  return {
    create: (file, content) => tryCreate(calls, file, content),
    lstat: async (file) => {
      const stats = await calls.lstat(file).catch(() => undefined);
      return stats === undefined ? undefined : { type: entryType(stats), mtimeMs: stats.mtime * 1_000 };
    },
    readText: (file) => readLockFile(calls, file),
    rename: (from, to) => calls.posixRename(from, to),
    link: (from, to) => calls.hardlink(from, to),
    unlink: (file) => calls.unlink(file),
    clockOffset: (directory) => serverClockOffset(calls, directory),
    mapError: (error, target) => mapSftpError(calls, error, OPERATION, target, { followLast: false }),
  };
}

/** Breaks the stale lock whose text was `staleText` (see the module comment). */
async function breakStale(files: LockFiles, lockFile: string, staleText: string): Promise<void> {
  const aside = `${lockFile}.stale-${randomBytes(4).toString("hex")}`;
  try {
    await files.rename(lockFile, aside);
  } catch {
    return; // gone already, or another waiter moved it first
  }
  if ((await files.readText(aside)) !== staleText) {
    // A fresh lock was made between our look and the rename: put it back.
    await files.link(aside, lockFile).catch(() => undefined);
  }
  await files.unlink(aside).catch(() => undefined);
}

/**
 * Gives the lock file a fresh mtime: a new file with the same text, created
 * exclusively beside it, renamed over it. Never opens the lock file itself by
 * path, which would follow a symlink put there since it was checked (and
 * write the lock's text over whatever file that symlink names).
 */
async function refreshLockFile(files: LockFiles, lockFile: string, content: string): Promise<void> {
  const fresh = `${lockFile}.hb-${randomBytes(4).toString("hex")}`;
  if (!(await files.create(fresh, content))) return;
  try {
    await files.rename(fresh, lockFile);
  } catch (error) {
    await files.unlink(fresh).catch(() => undefined);
    throw error;
  }
}

/**
 * Takes the lock of `target` (whose directory must exist). `calls` gives
 * the current file steps (an SFTP session may change after a reconnect); `clientId`
 * names this client in the lock file. `onRelease` runs once.
 */
export async function acquireSftpLock(
  calls: () => Promise<LockFiles>,
  target: string,
  options: WorkspaceLockOptions,
  clientId: string,
  onRelease: (lock: HeldSftpLock) => void,
): Promise<HeldSftpLock> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const directory = posix.dirname(target);
  const lockFile = posix.join(directory, lockFileName(posix.basename(target)));
  const token = randomBytes(12).toString("hex");
  const content = `${JSON.stringify({ agentToolsLock: 1, client: clientId, host: hostname(), pid: process.pid, token, target })}\n`;
  let offset: number | undefined;
  let delay = 10;
  for (;;) {
    const session = await calls();
    try {
      if (await session.create(lockFile, content)) break;
      const stats = await session.lstat(lockFile);
      if (stats !== undefined && stats.type === "file") {
        offset ??= await session.clockOffset(directory);
        if (Date.now() + offset - stats.mtimeMs > STALE_LOCK_MS) {
          const text = await session.readText(lockFile);
          if (text !== undefined) await breakStale(session, lockFile, text);
          continue;
        }
      }
    } catch (error) {
      throw await session.mapError(error, target);
    }
    signal?.throwIfAborted();
    if (Date.now() >= deadline) {
      throw new WorkspaceError("locked", `${OPERATION} ${target}: another holder kept the lock for over ${timeoutMs} ms (lock file ${lockFile}).`, {
        path: target,
        operation: OPERATION,
        lockFile,
      });
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.min(delay, Math.max(0, deadline - Date.now())),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    delay = Math.min(delay * 2, 250);
  }
  const heartbeat = setInterval(() => {
    void (async () => {
      const session = await calls();
      if ((await session.readText(lockFile)) !== content) return;
      await refreshLockFile(session, lockFile, content);
    })().catch(() => undefined);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  let released = false;
  const lock: HeldSftpLock = {
    lockFile,
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      onRelease(lock);
      try {
        const session = await calls();
        if ((await session.readText(lockFile)) === content) await session.unlink(lockFile);
      } catch {
        // The connection is gone: the lock file goes stale and the next taker breaks it.
      }
    },
  };
  return lock;
}
