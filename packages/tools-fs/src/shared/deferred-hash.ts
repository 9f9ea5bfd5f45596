/**
 * FNV-1a 64 of large new content, computed off the main thread.
 *
 * Hashing is serial (about 1.4 ms per MB), so for a 10 MB file it would cost
 * more than the whole read + write. Edit and Write therefore hand content
 * above a size limit to one lazily started worker thread shared by the
 * process. The worker never keeps the process alive (it is unref'd, except
 * while someone awaits a result) and exits after {@link HASH_WORKER_IDLE_MS}
 * without work. Where a worker cannot be started, the hash is computed on the
 * main thread in a later macrotask instead.
 */
import { Worker } from "node:worker_threads";
import { ContentHasher } from "./content-hash.js";
import { DEFERRED_HASH_WORKER_SOURCE } from "./deferred-hash-source.js";

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

let worker: Worker | null = null;
let workerFailed = false;
let nextId = 1;
let waiters = 0;
let idleTimer: NodeJS.Timeout | null = null;
const jobs = new Map<number, Job>();

function startWorker(): Worker | null {
  if (worker) return worker;
  if (workerFailed) return null;
  try {
    const started = new Worker(DEFERRED_HASH_WORKER_SOURCE, { eval: true, name: "agent-tools-hash" });
    started.unref();
    started.on("message", (message: { id: number; hash?: string; error?: string; released?: boolean }) => {
      const job = jobs.get(message.id);
      if (!job) return;
      if (message.released) {
        job.handedBack = true;
        job.release();
        return;
      }
      jobs.delete(message.id);
      job.release();
      if (message.hash !== undefined) job.resolve(message.hash);
      else job.reject(new Error(message.error ?? "hash worker failed"));
      scheduleIdleExit();
    });
    started.on("error", () => {
      workerFailed = true;
      stopped(started);
    });
    started.on("exit", () => stopped(started));
    worker = started;
    return started;
  } catch {
    workerFailed = true;
    return null;
  }
}

/** Forgets a worker that exited; jobs still in flight are hashed on the main thread. */
function stopped(which: Worker): void {
  if (worker !== which) return;
  worker = null;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const orphans = [...jobs.values()];
  jobs.clear();
  for (const job of orphans) hashLater(job);
}

function scheduleIdleExit(): void {
  if (jobs.size > 0 || !worker) return;
  if (idleTimer) clearTimeout(idleTimer);
  const idle = worker;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (worker === idle && jobs.size === 0) {
      worker = null;
      void idle.terminate();
    }
  }, HASH_WORKER_IDLE_MS);
  idleTimer.unref();
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
 * Starts hashing `pieces` (one content, in order) off the main thread.
 * `transfer` is the ArrayBuffer under the pieces when the caller owns it
 * exclusively and will not touch it again: it is moved to the worker instead
 * of copied (the caller's views become empty).
 *
 * @example
 * const pending = hashOffThread([bytes], ownedArrayBuffer(bytes));
 * const hash = await pending.wait();
 */
export function hashOffThread(pieces: readonly Uint8Array[], transfer?: ArrayBuffer): PendingHash {
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
  const thread = startWorker();
  if (!thread) hashLater(job);
  else {
    const id = nextId++;
    jobs.set(id, job);
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    try {
      thread.postMessage({ id, pieces }, transfer ? [transfer] : []);
      job.transferred = transfer !== undefined;
    } catch {
      thread.postMessage({ id, pieces });
    }
    if (waiters > 0) thread.ref();
  }
  return {
    promise,
    released,
    wait: async () => {
      waiters += 1;
      worker?.ref();
      try {
        return await promise;
      } finally {
        waiters -= 1;
        if (waiters === 0) worker?.unref();
      }
    },
  };
}

/** The ArrayBuffer under `bytes` when `bytes` spans all of it (so it may be transferred), else undefined. */
export function ownedArrayBuffer(bytes: Uint8Array): ArrayBuffer | undefined {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength ? buffer : undefined;
}

/** Whether the hashing worker is running (for tests). */
export function hashWorkerRunning(): boolean {
  return worker !== null;
}

/** Stops the hashing worker now (jobs in flight finish on the main thread). For tests and hosts shutting down. */
export async function stopHashWorker(): Promise<void> {
  const running = worker;
  if (!running) return;
  stopped(running);
  await running.terminate();
}
