/**
 * Hybrid search: the lexical search (unchanged) asked for more candidates,
 * the query embedded and the vector index's nearest neighbours read, both
 * at once, then fused (`fuseMemoryHits`). When the embedder or the vector
 * index fails (or the call is aborted while the query is embedded) the
 * lexical hits answer alone and the outcome says why.
 */
import { isAbortError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { type FusedMemoryHit, type MemoryHybridFusionSettings, fuseMemoryHits } from "../domain/hybrid-fusion.js";
import { MEMORY_LIMITS, type StoredMemoryType } from "../domain/memory-types.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import type { MemoryVectorHit, MemoryVectorIndex } from "../ports/memory-vector-index.js";
import { embedWithin } from "./memory-embedding-call.js";
import { capVectorError, describeVectorFailure } from "./memory-embedding-failure.js";
import { capEmbeddingText, unitVector } from "./memory-embedding-text.js";
import { type MemorySearchRequest, searchMemory } from "./memory-search.js";

/** The lexical search is asked for this many ranked candidates (its own per-index cap). */
export const HYBRID_LEXICAL_CANDIDATES = MEMORY_LIMITS.resultLimitMax;
/** The vector index is asked for this many nearest neighbours (5 measured best with the fusion: 10 and 20 lose 0.5 points of recall@5). */
export const HYBRID_VECTOR_CANDIDATES = 5;

/** A query embedding taking longer than this gives up: the search answers lexically with a `vectorError`. */
export const HYBRID_QUERY_EMBED_TIMEOUT_MS = 10_000;

/** An index that answered a search. */
export type MemorySearchIndex = "words" | "trigram" | "scan" | "vector";

/** A hybrid search: the lexical request, the call's signal and, for benches, the fusion settings. */
export interface MemoryHybridSearchRequest extends MemorySearchRequest {
  readonly signal?: AbortSignal;
  /** Default `MEMORY_HYBRID_FUSION`. */
  readonly fusion?: MemoryHybridFusionSettings;
}

/** Fused hits, how they were found and why the vector side did not answer, when it did not. */
export interface MemoryHybridSearchOutcome {
  readonly hits: readonly FusedMemoryHit[];
  /** True when the lexical indexes found nothing and a plain scan did. */
  readonly usedFallback: boolean;
  /** Which indexes were asked (`vector` when the vector index answered). */
  readonly indexes: readonly MemorySearchIndex[];
  /**
   * Why the search answered from the lexical indexes only (the embedder or
   * the vector index failed, or the call was aborted): a short sentence in
   * the SDK's words (the error's kind, code and HTTP status, at most 200
   * characters), never the provider's message; safe to show the model.
   */
  readonly vectorError?: string;
  /** The error the vector side threw, whole (for the host's logs; never shown to the model). */
  readonly vectorFailure?: unknown;
  /** How many nearest neighbours the vector index returned (before fusion's rules), when it answered. */
  readonly vectorCandidates?: number;
  /**
   * How many stored vectors the vector index left out as damaged (wrong
   * length, a non-finite component, not unit length), when it left any out:
   * those entries are found by their words until they are embedded again.
   */
  readonly vectorSkipped?: number;
}

type VectorSide = { ok: true; hits: readonly MemoryVectorHit[]; skipped?: number } | { ok: false; error: string; failure?: unknown };

/** The typed list the lexical search covers (daily only when asked or filtered on), for the vector query. */
function searchedTypes(request: MemorySearchRequest): readonly StoredMemoryType[] {
  if (request.types !== undefined) return request.types;
  return request.includeDaily ? ["user", "feedback", "project", "reference", "daily"] : ["user", "feedback", "project", "reference"];
}

async function vectorSide(store: MemoryVectorIndex, embedder: EmbeddingClient, request: MemoryHybridSearchRequest): Promise<VectorSide> {
  let embedded: Float32Array | undefined;
  try {
    // The query is cut like an entry's text (a 1 MB query is not sent whole), and given up after a time limit.
    [embedded] = await embedWithin(embedder, [capEmbeddingText(request.query)], {
      timeoutMs: HYBRID_QUERY_EMBED_TIMEOUT_MS,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
  } catch (error) {
    if (isAbortError(error)) return { ok: false, error: "the search was aborted while its query was embedded" };
    return { ok: false, error: describeVectorFailure(error, "embedder"), failure: error };
  }
  if (embedded === undefined || embedded.length !== embedder.dimension) {
    return { ok: false, error: capVectorError(`the embedder returned no vector of its dimension ${embedder.dimension} for the query`) };
  }
  const vector = unitVector(embedded);
  // A query the model gives no direction (no word it knows): nothing is near it.
  if (vector === undefined) return { ok: true, hits: [] };
  try {
    const hits = await store.searchVectors({
      scopes: request.scopes,
      types: searchedTypes(request),
      includeArchived: request.includeArchived,
      modelId: embedder.modelId,
      vector,
      limit: HYBRID_VECTOR_CANDIDATES,
    });
    const skipped = hits.skipped?.length ?? 0;
    return { ok: true, hits, ...(skipped > 0 ? { skipped } : {}) };
  } catch (error) {
    return { ok: false, error: describeVectorFailure(error, "vector index"), failure: error };
  }
}

/**
 * Runs the lexical search with {@link HYBRID_LEXICAL_CANDIDATES} candidates
 * and the vector side together, and fuses them into `request.limit` hits.
 *
 * @example
 * const outcome = await searchMemoryHybrid(store, embedder, { query: "where do we eat on fridays", scopes, includeDaily: false, includeArchived: false, limit: 8, now: Date.now() });
 * outcome.indexes; // ["words", "vector"]
 */
export async function searchMemoryHybrid(
  store: MemoryIndexStore & MemoryVectorIndex,
  embedder: EmbeddingClient,
  request: MemoryHybridSearchRequest,
): Promise<MemoryHybridSearchOutcome> {
  const [lexical, vector] = await Promise.all([
    searchMemory(store, { ...request, limit: Math.max(request.limit, HYBRID_LEXICAL_CANDIDATES) }),
    vectorSide(store, embedder, request),
  ]);
  if (!vector.ok) {
    return {
      hits: lexical.hits.slice(0, request.limit),
      usedFallback: lexical.usedFallback,
      indexes: lexical.indexes,
      vectorError: vector.error,
      ...(vector.failure === undefined ? {} : { vectorFailure: vector.failure }),
    };
  }
  const hits = fuseMemoryHits({
    lexical: lexical.hits,
    vector: vector.hits,
    types: searchedTypes(request),
    includeArchived: request.includeArchived,
    now: request.now,
    ...(request.currentWorkdirHash === undefined ? {} : { currentWorkdirHash: request.currentWorkdirHash }),
    limit: request.limit,
    ...(request.fusion === undefined ? {} : { settings: request.fusion }),
  });
  return {
    hits,
    usedFallback: lexical.usedFallback,
    indexes: [...lexical.indexes, "vector"],
    vectorCandidates: vector.hits.length,
    ...(vector.skipped === undefined ? {} : { vectorSkipped: vector.skipped }),
  };
}
