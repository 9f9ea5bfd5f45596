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
import type { Worker } from "node:worker_threads";
import { ContentHasher } from "../shared/content-hash.js";
import { startWorkerModule } from "../shared/worker-module.js";

/** Default size above which Edit and Write hash new content off the main thread. */
export const DEFAULT_INLINE_HASH_LIMIT_BYTES = 1024 * 1024;
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
}

/** The main-thread fallback; a job whose memory went to (or was copied by) a worker that died fails instead: its hash stays unknown. */
function hashLater(job: Job): void {
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

  private start(): Worker | null {
    if (this.worker) return this.worker;
    if (this.failed || this.closed) return null;
    try {
      const started = startWorkerModule(new URL("./hash-worker-thread.js", import.meta.url), { name: "agent-tools-hash" });
      started.unref();
      started.on("message", (message: { id: number; hash?: string; error?: string; released?: boolean }) => {
        const job = this.jobs.get(message.id);
        if (!job) return;
        if (message.released) {
          job.handedBack = true;
          job.release();
          return;
        }
        this.jobs.delete(message.id);
        job.release();
        if (message.hash !== undefined) job.resolve(message.hash);
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
    for (const job of orphans) hashLater(job);
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
    const job: Job = { resolve, reject, release, pieces, transferred: false, handedBack: false };
    const thread = this.start();
    if (!thread) hashLater(job);
    else {
      const id = this.nextId++;
      this.jobs.set(id, job);
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      try {
        thread.postMessage({ id, pieces }, transfer ? [transfer] : []);
        job.transferred = transfer !== undefined;
      } catch {
        thread.postMessage({ id, pieces });
      }
      if (this.waiters > 0) thread.ref();
    }
    return {
      promise,
      released,
      wait: async () => {
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

  /** Whether the worker thread is running. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** Stops the worker now and for good (jobs in flight finish on the main thread; later ones too). */
  async close(): Promise<void> {
    this.closed = true;
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
