/**
 * A workspace Grep's matching of a pattern that may backtrack: the bytes
 * read through the workspace are matched on one of the bundle's Grep
 * worker threads (the local engine's worker, given the bytes), which is
 * terminated when the regex time budget runs out, so a catastrophic
 * pattern never blocks the event loop.
 */
import { hitsOfBytes } from "../search/grep-engine.js";
import { patternTooExpensiveError } from "../search/grep-regex-budget.js";
import type { GrepFileHits } from "../search/grep-result.js";
import type { GrepWorkerHost, GrepWorkerReply } from "../search/grep-worker-host.js";

/** One file to match: its relative path and bytes. */
export interface ReadCandidate {
  readonly relative: string;
  readonly bytes: Buffer;
}

/** A search on the worker: the compiled regex, the query's words, the deadline. */
export interface WorkerMatch {
  readonly workers: GrepWorkerHost;
  readonly regex: RegExp;
  readonly pattern: string;
  readonly ignoreCase: boolean;
  readonly multiline: boolean;
  /** The call's regex time budget in milliseconds (for the message). */
  readonly budgetMs: number;
  /** When the budget runs out (`Date.now()` milliseconds); shared by the call's batches. */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

/**
 * Matches `candidates` on a worker thread within the budget; rejects with
 * the "pattern too expensive" error when it runs out (the thread is then
 * terminated), or with the signal's reason on abort.
 */
export async function matchOnWorker(match: WorkerMatch, candidates: readonly ReadCandidate[]): Promise<GrepFileHits[]> {
  if (candidates.length === 0) return [];
  const { budgetMs } = match;
  const thread = match.workers.acquire();
  let healthy = false;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const reply = await new Promise<GrepWorkerReply>((resolve, reject) => {
      thread.onMessage = (message) => {
        if (message.id === 1) resolve(message);
      };
      thread.onFailure = reject;
      timer = setTimeout(() => reject(patternTooExpensiveError(match.pattern, budgetMs)), Math.max(0, match.deadline - Date.now()));
      onAbort = () => reject(match.signal.reason ?? new Error("aborted"));
      match.signal.addEventListener("abort", onAbort, { once: true });
      const query = {
        directory: "/",
        source: match.regex.source,
        flags: match.regex.flags,
        multiline: match.multiline,
        pattern: match.pattern,
        ignoreCase: match.ignoreCase,
      };
      thread.worker.postMessage({
        id: 1,
        files: candidates.map((candidate) => candidate.relative),
        query,
        contents: candidates.map((candidate) => candidate.bytes),
      });
    });
    healthy = true;
    const hits: GrepFileHits[] = [];
    const flat = reply.hits;
    for (let index = 0; index < flat.length; ) {
      const file = candidates[flat[index]!]!;
      const count = flat[index + 1]!;
      hits.push(hitsOfBytes(file.relative, file.bytes, Array.from(flat.subarray(index + 2, index + 2 + count))));
      index += 2 + count;
    }
    return hits;
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) match.signal.removeEventListener("abort", onAbort);
    await match.workers.release(thread, healthy);
  }
}
