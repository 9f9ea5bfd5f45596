/**
 * `@agent-tools/memory/embeddings`: search by meaning for the memory. The
 * host passes an `EmbeddingClient` as `embedder` (MemoryServiceOptions,
 * the memory tool bundle, the sdk's `memory.embedder`); this subpath holds
 * the names around it: the option check, the background queue's status,
 * the embedded text, the hybrid fusion, the vector index types a host
 * implementing its own `MemoryIndexStore` needs, and the options of
 * `KyselyMemoryIndexStore.open` (the budget of its decoded-vector cache).
 *
 * @packageDocumentation
 */
export { checkMemoryEmbedder } from "../runtime/memory-embedding-options.js";
export { MEMORY_EMBEDDING_TEXT_MAX_CHARS, memoryEmbeddingText } from "../runtime/memory-embedding-text.js";
export type { MemoryEmbeddingError, MemoryEmbeddingStatus } from "../runtime/memory-embedding-queue.js";
export { MEMORY_HYBRID_FUSION, fuseMemoryHits } from "../domain/hybrid-fusion.js";
export type { FusedMemoryHit, MemoryFusionVectorHit, MemoryHybridFusionInput, MemoryHybridFusionSettings } from "../domain/hybrid-fusion.js";
export { HYBRID_LEXICAL_CANDIDATES, HYBRID_VECTOR_CANDIDATES, searchMemoryHybrid } from "../runtime/memory-hybrid-search.js";
export type { MemoryHybridSearchOutcome, MemoryHybridSearchRequest, MemorySearchIndex } from "../runtime/memory-hybrid-search.js";
export type {
  MemoryVectorHit,
  MemoryVectorHits,
  MemoryVectorIndex,
  MemoryVectorIndexKind,
  MemoryVectorQuery,
  MemoryVectorRow,
  MemoryVectorSkip,
} from "../ports/memory-vector-index.js";
export { DEFAULT_VECTOR_CACHE_BYTES } from "../stores/memory-vector-cache.js";
export type { KyselyMemoryIndexStoreOptions } from "../stores/kysely-memory-index-store.js";
