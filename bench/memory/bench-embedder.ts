/**
 * The embedder of the latency benches: the offline word-vector embedder of
 * `@agent-tools/word-vectors` when that package loads, else a seeded random
 * embedder (a unit vector of dimension 100 per text, from the text's hash),
 * which keeps the bench runnable without it. Both are real `EmbeddingClient`s.
 */
import { createHash } from "node:crypto";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import type { MemoryRecord } from "@agent-tools/memory";
import { seededRandom } from "./bench-util.js";

/** The embedder a bench uses and how it says what it is. */
export interface BenchEmbedder {
  readonly embedder: EmbeddingClient;
  /** One line for the report: which embedder, and why when it is the random one. */
  readonly note: string;
  close?(): Promise<void>;
}

/** A unit vector of `dimension` per text, seeded by the text's SHA-256 (the same text, the same vector). */
export function seededRandomEmbedder(dimension = 100): EmbeddingClient {
  return {
    modelId: `bench:seeded-random@${dimension}`,
    dimension,
    maxBatchSize: 1_000,
    async embed(texts, options) {
      options?.signal?.throwIfAborted();
      return texts.map((text) => {
        const random = seededRandom(createHash("sha256").update(text).digest().readUInt32LE(0));
        const vector = new Float32Array(dimension);
        let squared = 0;
        for (let index = 0; index < dimension; index += 1) {
          const value = random() + random() + random() - 1.5;
          vector[index] = value;
          squared += value * value;
        }
        const norm = Math.sqrt(squared);
        for (let index = 0; index < dimension; index += 1) vector[index]! /= norm;
        return vector;
      });
    },
  };
}

/** The offline embedder when `@agent-tools/word-vectors` loads, else {@link seededRandomEmbedder}. */
export async function openBenchEmbedder(): Promise<BenchEmbedder> {
  // A variable specifier: the bench type-checks and runs whether or not the package is installed.
  const specifier = "@agent-tools/word-vectors";
  try {
    const module = (await import(specifier)) as { createWordVectorEmbedder(): Promise<EmbeddingClient> };
    const start = performance.now();
    const embedder = await module.createWordVectorEmbedder();
    return { embedder, note: `offline word vectors (${embedder.modelId}), loaded in ${((performance.now() - start) / 1000).toFixed(1)} s` };
  } catch (error) {
    return {
      embedder: seededRandomEmbedder(100),
      note: `seeded random unit vectors of dimension 100 (${specifier} did not load: ${(error as Error).message.split("\n")[0]})`,
    };
  }
}

/** Unit vectors of records (description, a newline, the body), as the memory runtime embeds them. */
export async function vectorsForRecords(embedder: EmbeddingClient, records: readonly MemoryRecord[]): Promise<Float32Array[]> {
  const vectors = await embedder.embed(records.map((record) => `${record.description}\n${record.body}`));
  return vectors.map((vector) => {
    const norm = Math.hypot(...vector);
    return norm === 0 || Math.abs(norm - 1) < 1e-6 ? vector : vector.map((component) => component / norm);
  });
}
