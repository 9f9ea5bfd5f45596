/**
 * The vector side of the memory index: one embedding per entry and model,
 * stored beside the entry's row and searched by cosine similarity within
 * the asked scopes. Every {@link MemoryIndexStore} implements it; the
 * runtime only calls it when the host gave an `EmbeddingClient`.
 *
 * A vector belongs to one content version of its entry: it records the
 * entry's `bodyHash` at the time it was embedded, and is ignored (and listed
 * by {@link MemoryVectorIndex.vectorBacklog}) once the entry's hash moves on.
 * Deleting an entry deletes its vectors in the same transaction.
 *
 * Every method validates its input the same way on every store
 * (`memory-vector-rules.ts`): a vector of 1..16,384 finite components and
 * unit length (or all zero), one dimension per model id, a non-empty model
 * id, a whole `limit` >= 0; anything else rejects with
 * `SdkError("invalid_options")` and stores nothing.
 */
import type { MemoryKey, MemoryRecord, StoredMemoryType } from "../domain/memory-types.js";
import type { MemoryScopeRef } from "./memory-scope-ref.js";

/** One vector to store. */
export interface MemoryVectorRow {
  readonly key: MemoryKey;
  /** `EmbeddingClient.modelId` of the model that made it. */
  readonly modelId: string;
  /** The entry's `bodyHash` the text was taken from; a row whose hash no longer matches the entry's is not stored. */
  readonly bodyHash: string;
  /** Unit length (the runtime normalises before storing; the store refuses another length), every component finite; of the model's one dimension. */
  readonly vector: Float32Array;
}

/** A nearest-neighbour query. */
export interface MemoryVectorQuery {
  readonly scopes: readonly MemoryScopeRef[];
  /** Only these types; default every type, `daily` included (as {@link MemoryTextQuery}). */
  readonly types?: readonly StoredMemoryType[];
  readonly includeArchived?: boolean;
  readonly modelId: string;
  /** Unit length, of the model's dimension (a stored vector of another length rejects the query). */
  readonly vector: Float32Array;
  readonly limit: number;
}

/** A backlog query: the entries of `scopes` (every scope when absent) with no current vector of `modelId`. */
export interface MemoryVectorBacklogQuery {
  readonly modelId: string;
  /**
   * Only entries of these scopes (a service passes the ones it searches:
   * global and its project, so it never embeds another project's entries);
   * `[]` lists nothing; absent: every scope of the store (a host's
   * maintenance pass).
   */
  readonly scopes?: readonly MemoryScopeRef[];
  readonly limit: number;
}

/** One hit of {@link MemoryVectorIndex.searchVectors}. */
export interface MemoryVectorHit {
  readonly record: MemoryRecord;
  /** Cosine similarity (the dot product of the two unit vectors, in double precision), -1..1, higher is better. */
  readonly similarity: number;
}

/** A stored vector a search left out because it is damaged (the store never writes one; a damaged database may hold one). */
export interface MemoryVectorSkip {
  readonly key: MemoryKey;
  /** `dimension`: not the query's length (or its bytes are not whole float32s); `invalid`: a component not finite, or not unit length. */
  readonly reason: "dimension" | "invalid";
}

/**
 * The hits of {@link MemoryVectorIndex.searchVectors}: an array of hits,
 * carrying `skipped` when the scan left damaged vectors out (absent otherwise).
 */
export type MemoryVectorHits = readonly MemoryVectorHit[] & { readonly skipped?: readonly MemoryVectorSkip[] };

/** How a store finds nearest neighbours. */
export type MemoryVectorIndexKind = "scan" | "pgvector";

/** The vector methods of a memory index store. */
export interface MemoryVectorIndex {
  /**
   * Stores vectors, replacing an existing one of the same entry and model.
   * Rows whose entry is gone or whose `bodyHash` is no longer the entry's
   * are skipped (a racing write moved on). Resolves with how many were stored.
   */
  putVectors(rows: readonly MemoryVectorRow[]): Promise<{ readonly stored: number }>;
  /**
   * Entries (archived ones excluded) of the asked `scopes` (every scope
   * when absent) with no current vector of `modelId`: none stored, or one
   * of an older `bodyHash`. Oldest `updatedAt` first, then by scope,
   * workdirHash and slug.
   */
  vectorBacklog(query: MemoryVectorBacklogQuery): Promise<readonly MemoryRecord[]>;
  /**
   * The `limit` entries of the asked scopes (and types; archived ones only
   * with `includeArchived`) whose current vector is most similar, best first;
   * ties by slug, then scope and workdirHash (code-unit order). An entry
   * whose vector has an older body hash, or none of this model, is not a hit.
   *
   * A stored vector that is damaged (bytes that are not the query's length,
   * a non-finite component, not unit length) is left out and listed in the
   * result's `skipped`; the rest still answer. Only when no stored vector of
   * the asked scopes has the query's length does the query itself count as
   * wrong (`SdkError("invalid_options")`, a dimension mismatch).
   */
  searchVectors(query: MemoryVectorQuery): Promise<MemoryVectorHits>;
  /** Deletes every vector of another model than `keepModelId`; resolves with how many went. */
  pruneVectors(query: { readonly keepModelId: string }): Promise<number>;
  /** How this store answers {@link MemoryVectorIndex.searchVectors}, once opened. */
  vectorIndexKind(): Promise<MemoryVectorIndexKind>;
}
