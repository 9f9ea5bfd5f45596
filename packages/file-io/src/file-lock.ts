/**
 * A lock per file, shared by every process that runs the file tools: a lock
 * file `.<name>.agent-tools.lock` beside the target, created with O_EXCL and
 * holding `<pid> <start time> <token>`. Write, Edit and Delete hold it from
 * their staleness check to their rename or unlink, so two registries (or two
 * processes) can never both pass the check and then overwrite each other.
 *
 * A lock whose holder is gone (killed mid-write) is broken by the next
 * writer, which also sweeps that writer's temporary files.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { ToolError } from "@agent-tools/core";
import type { AnchoredDirectory } from "./anchored-directory.js";
import { isProcessGone, ownProcessIdentity, processStartTime } from "./process-liveness.js";
import { lockName, temporaryWriterPid } from "./sidecar-names.js";

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Default longest wait for a lock another live process holds. */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** A lock file still empty after this long was left by a writer killed between create and write. */
const EMPTY_LOCK_GRACE_MS = 5_000;

/** A held lock; release it exactly once. */
export interface FileLock {
  release(): void;
}

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  toolName: string;
  displayPath: string;
  signal?: AbortSignal;
  /** Longest wait for a live holder; default {@link DEFAULT_LOCK_TIMEOUT_MS}. */
  timeoutMs?: number;
}

function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, CREATE_FLAGS, 0o600);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Most bytes of a lock file read: `<pid> <start time> <token>` is far shorter. */
const MAX_LOCK_BYTES = 256;

/**
 * What the lock file at `path` holds: its text and mtime when it is a regular
 * file, `"foreign"` when it is something no writer creates (a symlink, FIFO,
 * socket, device or folder someone planted), undefined when it is gone. Opened
 * with O_NOFOLLOW | O_NONBLOCK and read up to {@link MAX_LOCK_BYTES}: a FIFO
 * or a link to `/dev/zero` would otherwise block or fill the host.
 */
function readLock(path: string): { content: string; mtimeMs: number } | "foreign" | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "ELOOP" || code === "EMLINK" || code === "ENXIO" ? "foreign" : undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return "foreign";
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const length = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
    return { content: buffer.subarray(0, length).toString("latin1"), mtimeMs: stats.mtimeMs };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** True when the lock at `path` was left by a writer that no longer runs, or is no lock at all (not a regular file). */
function isAbandoned(path: string): boolean {
  const lock = readLock(path);
  if (lock === undefined) return false; // gone already (or unreadable): just try to create it again
  if (lock === "foreign") return true;
  if (lock.content.trim() === "") return Date.now() - lock.mtimeMs > EMPTY_LOCK_GRACE_MS;
  const [pid, startTime] = lock.content.trim().split(" ");
  return isProcessGone(`${pid} ${startTime ?? ""}`);
}

/** Removes temporary files of `name` whose writers are gone. */
function sweepAbandonedTemporaries(directory: AnchoredDirectory, name: string): void {
  let entries: string[];
  try {
    entries = readdirSync(directory.self());
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = temporaryWriterPid(name, entry);
    if (pid === undefined || pid === process.pid || processStartTime(pid) !== null) continue;
    try {
      unlinkSync(directory.entry(entry));
    } catch {
      // another writer swept it first
    }
  }
}

function breakAbandoned(directory: AnchoredDirectory, lock: string, name: string): void {
  // Renamed first, so two writers breaking the same lock cannot remove a fresh one.
  const aside = `${lock}.stale.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(directory.entry(lock), directory.entry(aside));
  } catch {
    return;
  }
  try {
    unlinkSync(directory.entry(aside));
  } catch {
    // swept by someone else
  }
  sweepAbandonedTemporaries(directory, name);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock of `name` inside `directory`, waiting (with a short
 * back-off) while a live process holds it. Throws `cancelled` on abort and
 * `conflict` when the holder keeps it past the timeout.
 */
export async function acquireFileLock(directory: AnchoredDirectory, name: string, options: FileLockOptions): Promise<FileLock> {
  const lock = lockName(name);
  const path = directory.entry(lock);
  const content = `${ownProcessIdentity()} ${randomBytes(6).toString("hex")}\n`;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  let delay = 1;
  for (;;) {
    if (tryCreate(path, content)) {
      let held = true;
      return {
        release() {
          if (!held) return;
          held = false;
          try {
            unlinkSync(path);
          } catch {
            // already broken by a writer that took this process for dead: nothing to release
          }
        },
      };
    }
    if (isAbandoned(path)) {
      breakAbandoned(directory, lock, name);
      continue;
    }
    if (options.signal?.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call while it waited for another writer of the file.");
    if (Date.now() >= deadline) {
      throw new ToolError(
        "conflict",
        `${options.toolName} failed: another process has been modifying ${options.displayPath} for over ${Math.round((options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS) / 1000)} s (lock file ${lock} in its directory). Retry later; if no agent is running, delete that lock file.`,
        { details: { path: options.displayPath, lockFile: lock } },
      );
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 20);
  }
}
