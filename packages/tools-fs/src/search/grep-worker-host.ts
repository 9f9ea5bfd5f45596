/**
 * The Grep worker threads of one file-tool bundle.
 *
 * Invariants:
 * - A thread serves one search at a time: it is either idle (in `idle`,
 *   unref'd, so it never keeps the process alive) or held by one search,
 *   which alone sets its `onMessage` / `onFailure` (an idle thread started
 *   by `prestart()` has only an `onFailure` that notes a failed start).
 * - A search gives a thread back only when every batch it sent has been
 *   answered; a thread whose search failed, was aborted or ran out of time
 *   (perhaps stuck in a regex) is terminated, never reused.
 * - Idle threads exit after {@link GREP_WORKER_IDLE_MS} without work, and
 *   all of them on `close()` (the bundle's close, i.e. `registry.close()`).
 * - Threads alive (idle or held) are at most {@link GREP_WORKER_COUNT} per
 *   concurrent search; `prestart()` only tops the host up to that many.
 */
import type { Worker } from "node:worker_threads";
import { startWorkerModule } from "../shared/worker-module.js";

/** Worker threads used by one search at most; also the idle threads a host keeps. */
export const GREP_WORKER_COUNT = 2;
/** An idle Grep worker thread exits after this long without a search. */
export const GREP_WORKER_IDLE_MS = 10_000;

/**
 * A test hook, not per-registry state: the threads themselves belong to
 * each bundle's {@link GrepWorkerHost} (released by `registry.close()`);
 * this only counts them process-wide, so tests can check that every bundle
 * and every call released its threads. A plain number, it holds no memory.
 */
let liveWorkers = 0;

/** Worker threads of Grep alive right now in this process (for tests). */
export function liveGrepWorkerCount(): number {
  return liveWorkers;
}

/** A worker's message: `{ ready: true }` once, then one `{ id, hits }` per batch. */
export interface GrepWorkerReply {
  id: number;
  hits: Int32Array;
  ready?: true;
}

/** One Grep worker thread (see {@link GrepWorkerHost}). */
export class GrepThread {
  /** The thread. */
  readonly worker: Worker;
  /** It has posted `{ ready: true }` (it answers batches soon). */
  ready = false;
  /** It has exited. */
  exited = false;
  /** The holding search's handler of replies. */
  onMessage: ((reply: GrepWorkerReply) => void) | undefined;
  /** The holding search's handler of a crash or an early exit. */
  onFailure: ((error: unknown) => void) | undefined;

  constructor(onExit: (thread: GrepThread) => void) {
    this.worker = startWorkerModule(new URL("./grep-worker-thread.js", import.meta.url), { execArgv: [], name: "agent-tools-grep" });
    liveWorkers += 1;
    this.worker.on("message", (reply: GrepWorkerReply) => {
      if (reply.ready) this.ready = true;
      this.onMessage?.(reply);
    });
    this.worker.on("error", (error) => this.onFailure?.(error));
    this.worker.on("exit", (code) => {
      this.exited = true;
      liveWorkers -= 1;
      onExit(this);
      this.onFailure?.(new Error(`Grep worker exited early (code ${code})`));
    });
  }
}

/**
 * Hands out Grep worker threads to searches and keeps up to
 * {@link GREP_WORKER_COUNT} idle ones for the next search (a fresh thread
 * costs about 50-100 ms of start-up and cold JIT). Owned by a bundle.
 *
 * @example
 * const host = new GrepWorkerHost();
 * const thread = host.acquire();
 * // ... post batches, wait for every answer ...
 * await host.release(thread, true);
 * await host.close();
 */
export class GrepWorkerHost {
  private readonly idle: GrepThread[] = [];
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Threads handed out and not yet released. */
  private held = 0;
  /** A prestarted thread failed before it was ready: prestart no more (each attempt would fail alike). */
  private prestartFailed = false;

  constructor(private readonly idleMs: number = GREP_WORKER_IDLE_MS) {}

  /** Idle threads that have started (a search given them starts at once, with no start-up cost). */
  get readyIdle(): number {
    let ready = 0;
    for (const thread of this.idle) if (thread.ready && !thread.exited) ready += 1;
    return ready;
  }

  /** Threads alive: idle (ready or starting) and held by searches (for tests and diagnostics). */
  get threadCount(): number {
    return this.idle.length + this.held;
  }

  /** An idle thread (a ready one first), or a new one; it keeps the process alive until released. */
  acquire(): GrepThread {
    this.held += 1;
    const readyIndex = this.idle.findIndex((thread) => thread.ready);
    const reused = readyIndex === -1 ? this.idle.pop() : this.idle.splice(readyIndex, 1)[0];
    if (reused) {
      reused.worker.ref();
      return reused;
    }
    return this.spawn();
  }

  /**
   * Starts threads in the background until {@link GREP_WORKER_COUNT} are
   * alive (idle or held), so that the next search finds them ready: a
   * search of more than a few hundred files calls it when it ran on the
   * main thread. They wait idle (unref'd) and exit after the idle time
   * like any idle thread; nothing starts once the host is closed.
   */
  prestart(): void {
    if (this.closed || this.prestartFailed) return;
    let started = false;
    while (this.idle.length + this.held < GREP_WORKER_COUNT) {
      const thread = this.spawn();
      thread.onFailure = () => {
        if (!thread.ready) this.prestartFailed = true;
      };
      thread.worker.unref();
      this.idle.push(thread);
      started = true;
    }
    if (started) this.scheduleIdleExit();
  }

  private spawn(): GrepThread {
    return new GrepThread((thread) => {
      const index = this.idle.indexOf(thread);
      if (index !== -1) this.idle.splice(index, 1);
    });
  }

  /**
   * Gives a thread back: kept idle when `healthy` (every batch answered)
   * and there is room, else terminated; settles once it is idle or gone.
   */
  async release(thread: GrepThread, healthy: boolean): Promise<void> {
    this.held -= 1;
    thread.onMessage = undefined;
    thread.onFailure = undefined;
    if (healthy && !this.closed && !thread.exited && this.idle.length < GREP_WORKER_COUNT) {
      thread.worker.unref();
      this.idle.push(thread);
      this.scheduleIdleExit();
      return;
    }
    await thread.worker.terminate().catch(() => undefined);
  }

  /** Terminates the idle threads; threads still held are terminated when released. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const idle = this.idle.splice(0);
    await Promise.allSettled(idle.map((thread) => this.retire(thread)));
  }

  private scheduleIdleExit(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      for (const thread of this.idle.splice(0)) void this.retire(thread);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Ends an idle thread; its exit is no failed start (a prestarted one may not be ready yet). */
  private retire(thread: GrepThread): Promise<number> {
    thread.onFailure = undefined;
    return thread.worker.terminate();
  }
}
