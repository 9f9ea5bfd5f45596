import { Worker } from "node:worker_threads";
import { GREP_WORKER_SOURCE } from "./grep-worker-source.js";

/** Worker threads used for a large pure-TypeScript search. */
export const GREP_WORKER_COUNT = 2;
/** Files sent to a worker per message. */
const FILES_PER_BATCH = 128;
/**
 * Batches in flight per worker: enough that none runs dry while the main
 * thread walks (it reads replies only between walk slices).
 */
const BATCHES_IN_FLIGHT = 16;

let liveWorkers = 0;

/** Worker threads of Grep alive right now in this process (for tests: 0 between calls). */
export function liveGrepWorkerCount(): number {
  return liveWorkers;
}

/** What the worker needs to rebuild the query. */
export interface GrepWorkerQuery {
  /** RegExp source and flags, as compiled by `compileGrepPattern`. */
  source: string;
  flags: string;
  multiline: boolean;
  /** The user's pattern and case flag (for the literal prefilter). */
  pattern: string;
  ignoreCase: boolean;
}

/** One file with matches found by a worker. */
export interface GrepWorkerHit {
  /** The file, relative to the search directory. */
  path: string;
  /** 1-based matching lines, ascending. */
  lines: number[];
}

/** A running set of search workers fed file by file (see {@link startGrepWorkers}). */
export interface GrepWorkerPool {
  /** Queues one file (relative to the search directory). */
  add(relativePath: string): void;
  /**
   * Takes a batch no worker has yet (none started, or all busy) for the
   * caller to search itself; undefined when there is none.
   */
  takeBatch(): string[] | undefined;
  /** No more files: resolves with the hits in the order files were added. */
  finish(): Promise<GrepWorkerHit[]>;
  /** Stops the workers (the caller failed); `finish()` then rejects with `reason`. */
  cancel(reason: unknown): Promise<void>;
}

/**
 * Starts {@link GREP_WORKER_COUNT} worker threads that search the files
 * added to the pool in batches, handed out as workers finish earlier ones.
 * `finish()` rejects with the abort reason on abort, or with a worker's
 * error; the workers are always terminated before it settles, and the pool
 * must be finished (even after an error of the caller) so none outlives the call.
 */
export function startGrepWorkers(directory: string, query: GrepWorkerQuery, signal?: AbortSignal): GrepWorkerPool {
  const results: GrepWorkerHit[][] = [];
  const queue: Array<{ id: number; files: string[] }> = [];
  const inFlight = new Map<Worker, number>(); // only workers that are ready
  let current: string[] = [];
  let batchCount = 0;
  let doneBatches = 0;
  let closed = false;
  let outcome: { error: unknown } | { value: GrepWorkerHit[] } | undefined;
  let settle: ((result: typeof outcome) => void) | undefined;
  const settled = new Promise<NonNullable<typeof outcome>>((resolve) => {
    settle = (result) => resolve(result!);
  });
  const workers: Worker[] = [];
  const batchFiles = new Map<number, string[]>();

  const end = (result: NonNullable<typeof outcome>) => {
    if (outcome) return;
    outcome = result;
    signal?.removeEventListener("abort", onAbort);
    // Settle only once every worker has exited: none outlives the call.
    void Promise.allSettled(workers.map((worker) => worker.terminate())).then(() => settle!(result));
  };
  const onAbort = () => end({ error: signal?.reason ?? new Error("aborted") });
  signal?.addEventListener("abort", onAbort, { once: true });

  const pump = () => {
    for (const [worker, count] of inFlight) {
      let sent = count;
      while (queue.length && sent < BATCHES_IN_FLIGHT) {
        worker.postMessage(queue.shift());
        sent += 1;
      }
      inFlight.set(worker, sent);
    }
  };
  const flush = () => {
    if (!current.length) return;
    batchFiles.set(batchCount, current);
    queue.push({ id: batchCount++, files: current });
    current = [];
    pump();
  };

  for (let index = 0; index < GREP_WORKER_COUNT && !outcome; index += 1) {
    const worker = new Worker(GREP_WORKER_SOURCE, { eval: true, execArgv: [], workerData: { directory, ...query } });
    workers.push(worker);
    liveWorkers += 1;
    worker.on("message", ({ id, hits, ready }: { id: number; hits: Int32Array; ready?: true }) => {
      if (outcome) return;
      if (ready) {
        inFlight.set(worker, 0);
        return pump();
      }
      inFlight.set(worker, inFlight.get(worker)! - 1);
      const files = batchFiles.get(id)!;
      batchFiles.delete(id);
      const found: GrepWorkerHit[] = [];
      for (let offset = 0; offset < hits.length; ) {
        const count = hits[offset + 1]!;
        found.push({ path: files[hits[offset]!]!, lines: Array.from(hits.subarray(offset + 2, offset + 2 + count)) });
        offset += 2 + count;
      }
      results[id] = found;
      doneBatches += 1;
      if (closed && doneBatches === batchCount) return end({ value: results.flat() });
      pump();
    });
    worker.on("error", (error) => end({ error }));
    worker.on("exit", (code) => {
      liveWorkers -= 1;
      end({ error: new Error(`Grep worker exited early (code ${code})`) });
    });
  }
  if (signal?.aborted) onAbort();

  return {
    add(relativePath) {
      if (outcome) return;
      current.push(relativePath);
      if (current.length >= FILES_PER_BATCH) flush();
    },
    takeBatch() {
      if (outcome) return undefined;
      const batch = queue.shift();
      if (!batch) return undefined;
      batchFiles.delete(batch.id);
      results[batch.id] = [];
      doneBatches += 1;
      return batch.files;
    },
    async finish() {
      if (!outcome && !closed) {
        closed = true;
        flush();
        if (doneBatches === batchCount) end({ value: results.flat() });
      }
      const result = await settled;
      if ("error" in result) throw result.error;
      return result.value;
    },
    async cancel(reason) {
      end({ error: reason });
      await settled;
    },
  };
}
