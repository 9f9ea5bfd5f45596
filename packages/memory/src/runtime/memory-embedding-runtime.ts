/**
 * The service's side of embeddings: the `embedder` option checked and its
 * queue opened, and a search that is hybrid when there is an embedder and
 * exactly the lexical search when there is none.
 */
import { SdkError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import type { MemoryVectorIndex } from "../ports/memory-vector-index.js";
import { checkMemoryEmbedder } from "./memory-embedding-options.js";
import { MemoryEmbeddingQueue } from "./memory-embedding-queue.js";
import { type MemoryHybridSearchOutcome, type MemoryHybridSearchRequest, searchMemoryHybrid } from "./memory-hybrid-search.js";
import { searchMemory } from "./memory-search.js";

/** An embedder, the store as a vector index, and the background queue. */
export interface MemoryEmbedding {
  readonly embedder: EmbeddingClient;
  readonly store: MemoryIndexStore & MemoryVectorIndex;
  readonly queue: MemoryEmbeddingQueue;
}

const VECTOR_METHODS = ["putVectors", "vectorBacklog", "searchVectors", "pruneVectors", "vectorIndexKind"] as const;

/**
 * Checks `embedder` (`SdkError` naming `where` when it is not an
 * `EmbeddingClient`) and that `store` has the vector methods; returns the
 * queue (not started), embedding the backlog of `scopes` only (the scopes
 * the service searches), or undefined without an embedder.
 */
export function createMemoryEmbedding(
  store: MemoryIndexStore,
  embedder: unknown,
  scopes: readonly MemoryScopeRef[],
  now: () => number,
  where = "embedder",
): MemoryEmbedding | undefined {
  const client = checkMemoryEmbedder(embedder, where);
  if (client === undefined) return undefined;
  const missing = VECTOR_METHODS.filter((method) => typeof (store as unknown as Record<string, unknown>)[method] !== "function");
  if (missing.length > 0) {
    throw new SdkError("invalid_options", `${where} needs a memory index store with a vector index; this store has no ${missing.join(", ")}.`, {
      option: where,
    });
  }
  const vectorStore = store as MemoryIndexStore & MemoryVectorIndex;
  return { embedder: client, store: vectorStore, queue: new MemoryEmbeddingQueue({ store: vectorStore, embedder: client, scopes, now }) };
}

/**
 * Hybrid search with an embedder; without one, the lexical search as it is
 * (no query embedded, no vector read). A search never reads the backlog:
 * the queue reads it on open, after a reconcile and after a failure.
 */
export async function searchMemoryEntries(
  store: MemoryIndexStore,
  embedding: MemoryEmbedding | undefined,
  request: MemoryHybridSearchRequest,
): Promise<MemoryHybridSearchOutcome> {
  if (embedding === undefined) return searchMemory(store, request);
  const outcome = await searchMemoryHybrid(embedding.store, embedding.embedder, request);
  // The whole error stays with the host; the outcome's vectorError only names its kind.
  if (outcome.vectorFailure !== undefined) embedding.queue.noteSearchFailure(outcome.vectorFailure);
  return outcome;
}
