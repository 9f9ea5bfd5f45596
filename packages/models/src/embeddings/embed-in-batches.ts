import { throwIfAborted } from "@agent-tools/core/internal";

/**
 * Runs `embedBatch` over consecutive slices of at most `maxBatchSize` texts,
 * one request at a time, and concatenates the vectors in order. An empty
 * `texts` resolves with `[]` without any call; an aborted signal stops
 * before the next batch.
 */
export async function embedInBatches(
  texts: readonly string[],
  maxBatchSize: number,
  signal: AbortSignal | undefined,
  embedBatch: (batch: readonly string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  throwIfAborted(signal);
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += maxBatchSize) {
    throwIfAborted(signal);
    const batch = texts.slice(start, start + maxBatchSize);
    vectors.push(...(await embedBatch(batch)));
  }
  return vectors;
}
