import { GREP_WORKER_COUNT, type GrepThread, type GrepWorkerHost, type GrepWorkerReply } from "./grep-worker-host.js";

export { GREP_WORKER_COUNT, liveGrepWorkerCount } from "./grep-worker-host.js";

/** Files sent to a worker per message. */
const FILES_PER_BATCH = 128;
/**
 * Batches in flight per worker: enough that none runs dry while the main
 * thread walks (it reads replies only between walk slices).
 */
const BATCHES_IN_FLIGHT = 16;

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

/** Options of {@link startGrepWorkers}. */
export interface GrepWorkerSearchOptions {
  /** Where the worker threads come from and go back to. */
  host: GrepWorkerHost;
  /** Aborting stops the search: `finish()` rejects with the abort reason. */
  signal?: AbortSignal;
  /**
   * Wall-clock time the search may take from the first batch a started
   * worker receives; past it the workers are terminated and `finish()`
   * rejects with `error()`.
   */
  timeBudget?: { ms: number; error: () => unknown };
  /** Hears the hits of each batch a worker answers, as it answers (Grep's progress). */
  onBatchHits?: (hits: readonly GrepWorkerHit[]) => void;
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
  /** The search already ended (aborted, failed or out of time): more files are pointless, `finish()` rejects. */
  readonly stopped: boolean;
}

/**
 * Starts a search on up to {@link GREP_WORKER_COUNT} worker threads of
 * `options.host` (a second one joins once batches wait), fed the files
 * added to the pool in batches, handed out as workers finish earlier ones.
 * `finish()` rejects with the abort reason on abort, with the budget's
 * error when the time budget runs out, or with a worker's error; before it
 * settles, every worker is back in the host (all batches answered) or
 * terminated (perhaps stuck in a regex), and the pool must be finished
 * (even after an error of the caller) so none works on after the call.
 */
export function startGrepWorkers(directory: string, query: GrepWorkerQuery, options: GrepWorkerSearchOptions): GrepWorkerPool {
  const { host, signal, timeBudget } = options;
  const message = { directory, ...query };
  const results: GrepWorkerHit[][] = [];
  const queue: Array<{ id: number; files: string[] }> = [];
  const threads: GrepThread[] = [];
  const inFlight = new Map<GrepThread, number>(); // only threads that are ready
  let current: string[] = [];
  let batchCount = 0;
  let doneBatches = 0;
  let closed = false;
  let outcome: { error: unknown } | { value: GrepWorkerHit[] } | undefined;
  let settle: ((result: typeof outcome) => void) | undefined;
  const settled = new Promise<NonNullable<typeof outcome>>((resolve) => {
    settle = (result) => resolve(result!);
  });
  const batchFiles = new Map<number, string[]>();
  let budgetTimer: NodeJS.Timeout | undefined;

  const end = (result: NonNullable<typeof outcome>) => {
    if (outcome) return;
    outcome = result;
    signal?.removeEventListener("abort", onAbort);
    if (budgetTimer) clearTimeout(budgetTimer);
    // Settle only once every thread is idle again or has exited: none works on after the call.
    const healthy = "value" in result;
    void Promise.allSettled(threads.map((thread) => host.release(thread, healthy))).then(() => settle!(result));
  };
  const onAbort = () => end({ error: signal?.reason ?? new Error("aborted") });

  const pump = () => {
    // Each batch goes to the ready thread with the fewest in flight: threads share even a small search.
    while (queue.length) {
      let target: GrepThread | undefined;
      let least = BATCHES_IN_FLIGHT;
      for (const [thread, count] of inFlight) {
        if (count < least) {
          target = thread;
          least = count;
        }
      }
      if (!target) break;
      target.worker.postMessage({ ...queue.shift()!, query: message });
      // The clock starts with the first batch a started worker gets: start-up is not regex time.
      if (timeBudget && !budgetTimer) budgetTimer = setTimeout(() => end({ error: timeBudget.error() }), timeBudget.ms);
      inFlight.set(target, least + 1);
    }
    // Another thread joins once more batches wait than there are threads (a small search needs one).
    if (queue.length > threads.length && threads.length < GREP_WORKER_COUNT && !outcome && addThread().ready) pump();
  };
  const flush = () => {
    if (!current.length) return;
    batchFiles.set(batchCount, current);
    queue.push({ id: batchCount++, files: current });
    current = [];
    pump();
  };
  const onReply = (thread: GrepThread, { id, hits, ready }: GrepWorkerReply) => {
    if (outcome) return;
    if (ready) {
      inFlight.set(thread, 0);
      return pump();
    }
    inFlight.set(thread, inFlight.get(thread)! - 1);
    const files = batchFiles.get(id)!;
    batchFiles.delete(id);
    const found: GrepWorkerHit[] = [];
    for (let offset = 0; offset < hits.length; ) {
      const count = hits[offset + 1]!;
      found.push({ path: files[hits[offset]!]!, lines: Array.from(hits.subarray(offset + 2, offset + 2 + count)) });
      offset += 2 + count;
    }
    results[id] = found;
    options.onBatchHits?.(found);
    doneBatches += 1;
    if (closed && doneBatches === batchCount) return end({ value: results.flat() });
    pump();
  };
  function addThread(): GrepThread {
    const thread = host.acquire();
    threads.push(thread);
    thread.onMessage = (reply) => onReply(thread, reply);
    thread.onFailure = (error) => end({ error });
    if (thread.ready) inFlight.set(thread, 0);
    return thread;
  }

  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  else {
    addThread();
    // Threads started already (idle from an earlier search, or prestarted) all join at once.
    while (threads.length < GREP_WORKER_COUNT && host.readyIdle > 0) addThread();
  }

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
    get stopped() {
      return outcome !== undefined && "error" in outcome;
    },
  };
}
