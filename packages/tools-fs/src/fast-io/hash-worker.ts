/**
 * FNV-1a 64 of large new content, computed off the main thread.
 *
 * Hashing is serial (about 1.4 ms per MB), so for a 10 MB file it would cost
 * more than the whole read + write. Edit and Write therefore hand content
 * above a size limit to one lazily started worker thread owned by the
 * bundle's {@link HashWorker} (see fast-io.ts; `registry.close()` stops it).
 * The worker never keeps the process alive (it is unref'd, except while
 * someone awaits a result) and exits after {@link HASH_WORKER_IDLE_MS}
 * without work. Where a worker cannot be started, or after close, the hash
 * is computed on the main thread in a later macrotask instead.
 */
import { type Stats, fstat, read } from "node:fs";
import { promisify } from "node:util";
import type { Worker } from "node:worker_threads";
import { ContentHasher } from "../shared/content-hash.js";
import { startWorkerModule } from "../shared/worker-module.js";

/** Default size above which Edit and Write hash new content off the main thread. */
export const DEFAULT_INLINE_HASH_LIMIT_BYTES = 1024 * 1024;
/** Open files a bundle hashes off the main thread at most at once (each holds its descriptor until hashed). */
export const MAX_FILE_HASHES_IN_FLIGHT = 8;
/**
 * A file's hash starts this long after its Read (at once when someone
 * waits for it): a registry closed right after a Read never starts a
 * worker for it, and the Read's caller gets the CPU first.
 */
export const FILE_HASH_DELAY_MS = 10;
/** The worker exits after this long without work. */
export const HASH_WORKER_IDLE_MS = 2000;

/** A hash being computed. */
export interface PendingHash {
  /** Settles with the hash (16 hex characters); never keeps the process alive by itself. */
  readonly promise: Promise<string>;
  /** The same hash, keeping the process alive until it arrives (for callers that must have it). */
  wait(): Promise<string>;
  /** Settles once nothing reads the hashed pieces any more (their memory may be reused). */
  readonly released: Promise<void>;
}

interface Job {
  resolve(hash: string): void;
  reject(error: Error): void;
  release(): void;
  pieces: readonly Uint8Array[];
  /** The pieces' memory was moved to a worker: only that worker can hash them. */
  transferred: boolean;
  /** The worker copied the pieces and their memory may have been reused since: only that worker can hash them. */
  handedBack: boolean;
  /** An open file to hash instead of pieces (see {@link HashWorker.hashFile}). */
  file?: FileToHash;
}

/** The identity of a file version (what a stat says), as {@link HashWorker.hashFile} checks it. */
export interface FileIdentity {
  readonly mtimeMs: number;
  readonly ctimeMs?: number;
  readonly ino?: number;
  readonly size: number;
}

/** The FNV-1a 64 state (16 hex characters) after a file's first `bytes` bytes, hashed by the caller. */
export interface HashPrefix {
  readonly bytes: number;
  readonly hash: string;
}

/** An open file whose first `expected.size` bytes are hashed (after `prefix`, if given), if it is still `expected` afterwards. */
interface FileToHash {
  readonly fd: number;
  readonly expected: FileIdentity;
  readonly prefix?: HashPrefix;
}

/** The hash of a file's bytes, or "" when the file was not the expected version all along (its fstat after the reads differs, or it ended early). */
function verifiedFileHash(file: FileToHash, hash: string, bytes: number, after: FileIdentity): string {
  const { expected } = file;
  const same =
    bytes === expected.size &&
    after.size === expected.size &&
    after.mtimeMs === expected.mtimeMs &&
    after.ctimeMs === expected.ctimeMs &&
    after.ino === expected.ino;
  return same ? hash : "";
}

const readAt = promisify(read);
const fstatOf = promisify(fstat) as (fd: number) => Promise<Stats>;

/** The main-thread fallback of a file job: async positional reads, hashed here. */
async function hashFileHere(file: FileToHash): Promise<string> {
  const hasher = new ContentHasher();
  if (file.prefix) hasher.resume(file.prefix.hash);
  const buffer = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, Math.max(1, file.expected.size)));
  let bytes = file.prefix?.bytes ?? 0;
  while (bytes < file.expected.size) {
    const { bytesRead } = await readAt(file.fd, buffer, 0, Math.min(buffer.length, file.expected.size - bytes), bytes);
    if (bytesRead === 0) break;
    hasher.update(buffer.subarray(0, bytesRead));
    bytes += bytesRead;
  }
  return verifiedFileHash(file, hasher.digest(), bytes, await fstatOf(file.fd));
}

/**
 * The main-thread fallback; a job whose memory went to (or was copied by) a
 * worker that died fails instead: its hash stays unknown. A file job after
 * {@link HashWorker.close} settles as "" (unknown) at once: its registry is
 * closed, so reading the whole file on the main thread would serve no one.
 */
function hashLater(job: Job, closed: boolean): void {
  const { file } = job;
  if (file && closed) {
    job.release();
    job.resolve("");
    return;
  }
  if (file) {
    hashFileHere(file)
      .then(job.resolve, (error: unknown) => job.reject(error instanceof Error ? error : new Error(String(error))))
      .finally(job.release);
    return;
  }
  setImmediate(() => {
    if (job.transferred || job.handedBack) {
      job.release();
      job.reject(new Error("the hashing worker stopped before it answered"));
      return;
    }
    try {
      const hasher = new ContentHasher();
      for (const piece of job.pieces) hasher.update(piece);
      job.resolve(hasher.digest());
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      job.release();
    }
  });
}

/**
 * One bundle's hashing worker thread: started on first use, unref'd, stopped
 * after {@link HASH_WORKER_IDLE_MS} idle or by {@link HashWorker.close}.
 *
 * @example
 * const hashes = new HashWorker();
 * const hash = await hashes.hash([bytes]).wait();
 * await hashes.close();
 */
export class HashWorker {
  private worker: Worker | null = null;
  private failed = false;
  private closed = false;
  private nextId = 1;
  private waiters = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly jobs = new Map<number, Job>();
  /** File jobs not settled yet (see {@link MAX_FILE_HASHES_IN_FLIGHT}). */
  private filesInFlight = 0;
  /** File jobs waiting for their {@link FILE_HASH_DELAY_MS}: each dispatches its job now when called. */
  private readonly delayed = new Set<() => void>();

  private start(): Worker | null {
    if (this.worker) return this.worker;
    if (this.failed || this.closed) return null;
    try {
      const started = startWorkerModule(new URL("./hash-worker-thread.js", import.meta.url), { name: "agent-tools-hash" });
      started.unref();
      started.on("message", (message: { id: number; hash?: string; error?: string; released?: boolean; bytes?: number; stat?: FileIdentity }) => {
        const job = this.jobs.get(message.id);
        if (!job) return;
        if (message.released) {
          job.handedBack = true;
          job.release();
          return;
        }
        this.jobs.delete(message.id);
        job.release();
        if (message.hash !== undefined && job.file)
          job.resolve(message.stat ? verifiedFileHash(job.file, message.hash, message.bytes ?? -1, message.stat) : "");
        else if (message.hash !== undefined) job.resolve(message.hash);
        else job.reject(new Error(message.error ?? "hash worker failed"));
        this.scheduleIdleExit();
      });
      started.on("error", () => {
        this.failed = true;
        this.stopped(started);
      });
      started.on("exit", () => this.stopped(started));
      this.worker = started;
      return started;
    } catch {
      this.failed = true;
      return null;
    }
  }

  /** Forgets a worker that exited; jobs still in flight are hashed on the main thread. */
  private stopped(which: Worker): void {
    if (this.worker !== which) return;
    this.worker = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const orphans = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of orphans) hashLater(job, this.closed);
  }

  private scheduleIdleExit(): void {
    if (this.jobs.size > 0 || !this.worker) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const idle = this.worker;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker === idle && this.jobs.size === 0) {
        this.worker = null;
        void idle.terminate();
      }
    }, HASH_WORKER_IDLE_MS);
    this.idleTimer.unref();
  }

  /**
   * Starts hashing `pieces` (one content, in order) off the main thread.
   * `transfer` is the ArrayBuffer under the pieces when the caller owns it
   * exclusively and will not touch it again: it is moved to the worker
   * instead of copied (the caller's views become empty).
   */
  hash(pieces: readonly Uint8Array[], transfer?: ArrayBuffer): PendingHash {
    return this.submit({ pieces }, transfer);
  }

  /**
   * Starts hashing the first `expected.size` bytes of the open file `fd` off
   * the main thread (positional reads: the file's offset is not moved), from
   * `prefix` on when the caller hashed the first bytes already. The
   * hash settles as "" (unknown) unless the file's fstat after the reads
   * still equals `expected` (mtime, ctime, inode, size) and exactly that
   * many bytes were read: a file changed before or while it was hashed never
   * gets the hash of its new content under its old identity. The caller
   * keeps `fd` open until `released` settles. Undefined (nothing started)
   * while {@link MAX_FILE_HASHES_IN_FLIGHT} files are being hashed: the
   * caller's version then stays without a hash.
   */
  hashFile(fd: number, expected: FileIdentity, prefix?: HashPrefix): PendingHash | undefined {
    if (this.filesInFlight >= MAX_FILE_HASHES_IN_FLIGHT) return undefined;
    this.filesInFlight += 1;
    const pending = this.submit({ pieces: [], file: { fd, expected: { ...expected }, prefix } });
    void pending.released.then(() => {
      this.filesInFlight -= 1;
    });
    return pending;
  }

  private submit(what: { pieces: readonly Uint8Array[]; file?: FileToHash }, transfer?: ArrayBuffer): PendingHash {
    const { pieces, file } = what;
    let resolve!: (hash: string) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<string>((onResolve, onReject) => {
      resolve = onResolve;
      reject = onReject;
    });
    promise.catch(() => undefined); // a failure is reported to whoever waits
    let release!: () => void;
    const released = new Promise<void>((onRelease) => {
      release = onRelease;
    });
    const job: Job = { resolve, reject, release, pieces, transferred: false, handedBack: false, file };
    // A file is hashed for a Read that is answering now: the worker is started
    // (or the job posted) a little later, off the Read's own time.
    let now: (() => void) | undefined;
    if (file) {
      const go = () => {
        clearTimeout(timer);
        if (!this.delayed.delete(go)) return;
        this.dispatch(job);
      };
      const timer = setTimeout(go, FILE_HASH_DELAY_MS);
      timer.unref();
      this.delayed.add(go);
      now = go;
    } else this.dispatch(job, transfer);
    return {
      promise,
      released,
      wait: async () => {
        now?.();
        this.waiters += 1;
        this.worker?.ref();
        try {
          return await promise;
        } finally {
          this.waiters -= 1;
          if (this.waiters === 0) this.worker?.unref();
        }
      },
    };
  }

  /** Posts `job` to the worker (started if needed), or hashes it on the main thread where no worker can run. */
  private dispatch(job: Job, transfer?: ArrayBuffer): void {
    const thread = this.start();
    if (!thread) {
      hashLater(job, this.closed);
      return;
    }
    const id = this.nextId++;
    this.jobs.set(id, job);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const { file } = job;
    try {
      if (file) thread.postMessage({ id, file: { fd: file.fd, size: file.expected.size, from: file.prefix?.bytes, state: file.prefix?.hash } });
      else thread.postMessage({ id, pieces: job.pieces }, transfer ? [transfer] : []);
      job.transferred = transfer !== undefined;
    } catch {
      thread.postMessage({ id, pieces: job.pieces });
    }
    if (this.waiters > 0) thread.ref();
  }

  /** Whether the worker thread is running. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the worker now and for good (jobs in flight finish on the main thread; later ones too; a file's hash settles as "" unknown). */
  async close(): Promise<void> {
    this.closed = true;
    for (const go of [...this.delayed]) go(); // settle as unknown: no worker starts now
    const running = this.worker;
    if (!running) return;
    this.stopped(running);
    await running.terminate();
  }
}

/** The ArrayBuffer under `bytes` when `bytes` spans all of it (so it may be transferred), else undefined. */
export function ownedArrayBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? buffer : undefined;
}
