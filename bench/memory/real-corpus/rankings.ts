/**
 * The rankings the real corpus measures, each answering every question with
 * at most 10 entry keys: plain BM25 (computed here, over the same entries of
 * the same scope), the SDK's lexical search (MemoryService.search without an
 * embedder), the vector index alone (the question embedded, `searchVectors`
 * over the question's scopes) and the SDK's hybrid search (MemoryService.search
 * with an embedder).
 */
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import type { MemoryService } from "@agent-tools/memory";
// The plain BM25 baseline is internal to the memory package: the benchmark reads it from the source.
import { PlainBm25Index, tokenizeWords } from "../../../packages/memory/src/ports/plain-bm25.js";
import { type LoadedCorpusStore, embeddingTextOf } from "./corpus-store.js";
import type { RealCorpusQuestion, RealDataset } from "./corpus-types.js";
import { RESULT_LIMIT } from "./retrieval-metrics.js";

/** A ranking of the real corpus. */
export type RetrievalRanking = "plain-bm25" | "lexical" | "vector" | "hybrid";

/** Every ranking, in report order. */
export const RETRIEVAL_RANKINGS: readonly RetrievalRanking[] = ["plain-bm25", "lexical", "vector", "hybrid"];

/** Types a search without a type filter asks for (daily journals excluded, as MemoryService.search does). */
const SEARCHED_TYPES = ["user", "feedback", "project", "reference"] as const;
const EMBED_BATCH = 256;
const PUT_BATCH = 500;

/** Top keys per question, in question order. */
export type RankedKeys = readonly (readonly string[])[];

/** Plain BM25 over `slug\ndescription\nbody` of the question's project's entries, the question's words OR-ed. */
export function plainBm25Keys(datasets: readonly RealDataset[], questions: readonly RealCorpusQuestion[]): RankedKeys {
  const indexes = new Map<string, PlainBm25Index<string>>();
  for (const dataset of datasets) {
    for (const entry of dataset.entries) {
      let index = indexes.get(entry.project);
      if (index === undefined) {
        index = new PlainBm25Index<string>();
        indexes.set(entry.project, index);
      }
      index.add(entry.key, `${entry.slug}\n${entry.description}\n${entry.body}`);
    }
  }
  return questions.map((question) =>
    (
      indexes.get(question.project)?.search(
        tokenizeWords(question.text).map((word) => [word]),
        RESULT_LIMIT,
      ) ?? []
    ).map((hit) => hit.id),
  );
}

/** MemoryService.search (scope auto, limit 10) in each question's project. */
export async function serviceKeys(
  loaded: LoadedCorpusStore,
  services: ReadonlyMap<string, MemoryService>,
  questions: readonly RealCorpusQuestion[],
): Promise<RankedKeys> {
  const keys: string[][] = [];
  for (const question of questions) {
    const result = await services.get(question.project)!.search({ query: question.text, limit: RESULT_LIMIT });
    keys.push(result.hits.map((hit) => loaded.keyOf(hit.record)));
  }
  return keys;
}

/** `vector` scaled to unit length (a zero vector stays zero). */
export function unitVector(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm === 0) return vector;
  return vector.map((value) => value / norm);
}

/**
 * Embeds every entry of `datasets` with `embedder` and stores the vectors
 * (under the entry's current body hash), unless the store already holds them.
 * Returns a note when the store has no vector index yet.
 */
export async function putCorpusVectors(loaded: LoadedCorpusStore, datasets: readonly RealDataset[], embedder: EmbeddingClient): Promise<string | undefined> {
  const store = loaded.store as Partial<LoadedCorpusStore["store"]>;
  if (typeof store.putVectors !== "function" || typeof store.vectorBacklog !== "function") return "the store has no vector index yet";
  const entries = datasets.flatMap((dataset) => dataset.entries);
  for (let start = 0; start < entries.length; start += EMBED_BATCH) {
    const batch = entries.slice(start, start + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map(embeddingTextOf));
    const rows = batch.map((entry, index) => ({
      key: { scope: "project" as const, workdirHash: loaded.hashes.get(entry.project)!, slug: entry.slug },
      modelId: embedder.modelId,
      bodyHash: loaded.records.get(entry.key)!.bodyHash,
      vector: unitVector(vectors[index]!),
    }));
    for (let offset = 0; offset < rows.length; offset += PUT_BATCH) await store.putVectors(rows.slice(offset, offset + PUT_BATCH));
  }
  const backlog = await store.vectorBacklog({ modelId: embedder.modelId, limit: 1 });
  if (backlog.length > 0) return `the store still lists ${backlog[0]!.slug} as not embedded after putVectors`;
  return undefined;
}

/** The vector index alone: each question embedded, the 10 most similar entries of its scopes. */
export async function vectorKeys(loaded: LoadedCorpusStore, questions: readonly RealCorpusQuestion[], embedder: EmbeddingClient): Promise<RankedKeys> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < questions.length; start += EMBED_BATCH) {
    vectors.push(...(await embedder.embed(questions.slice(start, start + EMBED_BATCH).map((question) => question.text))));
  }
  const keys: string[][] = [];
  for (const [index, question] of questions.entries()) {
    const hits = await loaded.store.searchVectors({
      scopes: [
        { scope: "project", workdirHash: loaded.hashes.get(question.project)! },
        { scope: "global", workdirHash: "" },
      ],
      types: SEARCHED_TYPES,
      includeArchived: false,
      modelId: embedder.modelId,
      vector: unitVector(vectors[index]!),
      limit: RESULT_LIMIT,
    });
    keys.push(hits.map((hit) => loaded.keyOf(hit.record)));
  }
  return keys;
}
