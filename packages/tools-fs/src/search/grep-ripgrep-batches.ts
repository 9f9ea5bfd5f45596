/**
 * Bounded command lines for ripgrep runs over explicit files. ripgrep 15 has
 * no option that reads file paths from a file or stdin (`-f` reads
 * patterns), so a long file list is split over several runs whose
 * arguments stay far below the kernel's ARG_MAX (2 MiB on Linux, shared
 * with the environment): past it `spawn` fails with E2BIG.
 */

/** Argument bytes one ripgrep run may take for its files (the fixed flags come on top). */
export const RIPGREP_FILE_ARGUMENT_BYTES = 256 * 1024;

/** ripgrep runs of one call at a time (each is multi-threaded itself). */
export const RIPGREP_BATCH_CONCURRENCY = 2;

/** What one argument costs the kernel: its UTF-8 bytes, the NUL and the pointer to it. */
export function argumentBytes(argument: string): number {
  return Buffer.byteLength(argument, "utf8") + 1 + 8;
}

/**
 * Splits `files` (command-line arguments) into consecutive batches whose
 * arguments take at most `budget` bytes each (a single longer argument
 * still gets a batch of its own); the order is kept.
 *
 * @example
 * batchFileArguments(["./a", "./b", "./c"], 24); // [["./a", "./b"], ["./c"]]
 */
export function batchFileArguments(files: readonly string[], budget: number = RIPGREP_FILE_ARGUMENT_BYTES): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const file of files) {
    const cost = argumentBytes(file);
    if (current.length > 0 && bytes + cost > budget) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += cost;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Runs `run` on every item, at most `concurrency` at a time, and resolves
 * with the results in item order. On the first failure no further item
 * starts, the signal passed to the running ones is aborted (their processes
 * are killed), and the call rejects with that failure once they settled.
 * Aborting `signal` does the same with its reason.
 */
export async function runBatches<T, R>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal | undefined,
  run: (item: T, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason ?? new Error("aborted"));
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!failure && !controller.signal.aborted && next < items.length) {
      const index = next++;
      try {
        results[index] = await run(items[index]!, controller.signal);
      } catch (error) {
        failure ??= { error };
        controller.abort(error);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (failure) throw failure.error;
  if (controller.signal.aborted) throw controller.signal.reason;
  return results;
}
