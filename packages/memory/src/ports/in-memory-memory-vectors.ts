/**
 * The vector side of {@link InMemoryMemoryIndexStore}: one vector per entry
 * and model in a map, scanned by dot product. The store hands in its records,
 * so the body-hash, scope, type and archived rules read the same rows the
 * text search reads.
 */
import type { MemoryRecord } from "../domain/memory-types.js";
import { compareForList, memoryKeyId, searchTypes } from "./memory-index-query.js";
import type { MemoryScopeRef } from "./memory-scope-ref.js";
import type { MemoryVectorBacklogQuery, MemoryVectorHit, MemoryVectorHits, MemoryVectorQuery, MemoryVectorRow } from "./memory-vector-index.js";
import { VectorTopK, assertVectorQuery, assertVectorRows, dimensionMismatch, dotProduct } from "./memory-vector-rules.js";

interface StoredVector {
  readonly bodyHash: string;
  readonly vector: Float32Array;
}

/** Backlog order: `updatedAt` ascending (oldest first), then scope, workdirHash and slug ascending. */
function compareForBacklog(left: MemoryRecord, right: MemoryRecord): number {
  if (left.updatedAt !== right.updatedAt) return left.updatedAt - right.updatedAt;
  // compareForList orders by updatedAt descending first; with equal times it is the key order.
  return compareForList(left, right);
}

/**
 * Vectors in memory, keyed by entry ({@link memoryKeyId}) and model id.
 * Vectors are copied in, so a caller reusing its array changes nothing here.
 */
export class InMemoryVectorTable {
  readonly #byEntry = new Map<string, Map<string, StoredVector>>();

  /** {@inheritDoc MemoryVectorIndex.putVectors}; `records` are the store's current rows. */
  put(rows: readonly MemoryVectorRow[], records: ReadonlyMap<string, MemoryRecord>): { readonly stored: number } {
    const dimensions = assertVectorRows(rows);
    for (const [modelId, dimension] of dimensions) {
      const stored = this.#dimensionOf(modelId);
      if (stored !== undefined && stored !== dimension) throw dimensionMismatch(modelId, stored, dimension);
    }
    let stored = 0;
    for (const row of rows) {
      const id = memoryKeyId(row.key);
      if (records.get(id)?.bodyHash !== row.bodyHash) continue; // gone, or a write moved on
      let byModel = this.#byEntry.get(id);
      if (byModel === undefined) {
        byModel = new Map();
        this.#byEntry.set(id, byModel);
      }
      byModel.set(row.modelId, { bodyHash: row.bodyHash, vector: Float32Array.from(row.vector) });
      stored += 1;
    }
    return { stored };
  }

  /** {@inheritDoc MemoryVectorIndex.vectorBacklog} */
  backlog(query: MemoryVectorBacklogQuery, records: Iterable<MemoryRecord>): MemoryRecord[] {
    const scopes = query.scopes === undefined ? undefined : new Set(query.scopes.map((scope: MemoryScopeRef) => `${scope.scope}\u0000${scope.workdirHash}`));
    const missing: MemoryRecord[] = [];
    for (const record of records) {
      if (record.archived || (scopes !== undefined && !scopes.has(`${record.scope}\u0000${record.workdirHash}`))) continue;
      const current = this.#byEntry.get(memoryKeyId(record))?.get(query.modelId);
      if (current === undefined || current.bodyHash !== record.bodyHash) missing.push(record);
    }
    missing.sort(compareForBacklog);
    return missing.slice(0, Math.max(0, query.limit)).map((record) => structuredClone(record));
  }

  /** {@inheritDoc MemoryVectorIndex.searchVectors} */
  search(query: MemoryVectorQuery, records: ReadonlyMap<string, MemoryRecord>): MemoryVectorHits {
    assertVectorQuery(query);
    const types = new Set(searchTypes(query));
    const scopes = new Set(query.scopes.map((scope: MemoryScopeRef) => `${scope.scope}\u0000${scope.workdirHash}`));
    const top = new VectorTopK<MemoryRecord>(query.limit);
    for (const [id, byModel] of this.#byEntry) {
      const stored = byModel.get(query.modelId);
      const record = records.get(id);
      if (stored === undefined || record === undefined || stored.bodyHash !== record.bodyHash) continue;
      if (!scopes.has(`${record.scope}\u0000${record.workdirHash}`) || !types.has(record.type)) continue;
      if (record.archived && query.includeArchived !== true) continue;
      if (stored.vector.length !== query.vector.length) throw dimensionMismatch(query.modelId, stored.vector.length, query.vector.length);
      const similarity = dotProduct(query.vector, stored.vector);
      if (top.admits(similarity)) top.offer({ scope: record.scope, workdirHash: record.workdirHash, slug: record.slug, similarity, item: record });
    }
    // Vectors are validated on the way in and copied: none is ever damaged here, so nothing is skipped.
    return top.sorted().map((candidate): MemoryVectorHit => ({ record: structuredClone(candidate.item), similarity: candidate.similarity }));
  }

  /** {@inheritDoc MemoryVectorIndex.pruneVectors} */
  prune(keepModelId: string): number {
    let removed = 0;
    for (const [id, byModel] of this.#byEntry) {
      for (const modelId of [...byModel.keys()]) {
        if (modelId === keepModelId) continue;
        byModel.delete(modelId);
        removed += 1;
      }
      if (byModel.size === 0) this.#byEntry.delete(id);
    }
    return removed;
  }

  /** Drops every vector of one entry (the store deleted it). */
  deleteEntry(id: string): void {
    this.#byEntry.delete(id);
  }

  /** The dimension of the stored vectors of a model, if any is stored. */
  #dimensionOf(modelId: string): number | undefined {
    for (const byModel of this.#byEntry.values()) {
      const stored = byModel.get(modelId);
      if (stored !== undefined) return stored.vector.length;
    }
    return undefined;
  }
}
