import type { MemoryAuditEntry, MemoryKey, MemoryOrganizeRun, MemoryRecord, StoredMemoryType } from "../domain/memory-types.js";

import type { MemoryScopeRef } from "./memory-scope-ref.js";
import type { MemoryVectorIndex } from "./memory-vector-index.js";

export type { MemoryScopeRef } from "./memory-scope-ref.js";

/** Filter of {@link MemoryIndexStore.list}. */
export interface MemoryListQuery {
  /** Scopes to list (auto = global plus the current project). */
  readonly scopes: readonly MemoryScopeRef[];
  /** Only these types; default every non-daily type, plus daily when `includeDaily`. */
  readonly types?: readonly StoredMemoryType[];
  readonly includeDaily?: boolean;
  readonly includeArchived?: boolean;
  /** Order: `updatedAt` descending, then scope, workdirHash, slug ascending. */
  readonly offset: number;
  readonly limit: number;
}

/** Result of {@link MemoryIndexStore.list}. */
export interface MemoryListPage {
  readonly records: readonly MemoryRecord[];
  /** Matching records before offset/limit. */
  readonly total: number;
}

/**
 * A full-text query. `terms` are already normalised words (lower case, no
 * punctuation) and phrases; a record matches when it holds any of them
 * (OR), ranked by BM25 over slug, description and body.
 */
export interface MemoryTextQuery {
  readonly scopes: readonly MemoryScopeRef[];
  /** Only these types; default every type, `daily` included. */
  readonly types?: readonly StoredMemoryType[];
  readonly includeArchived?: boolean;
  /**
   * Both indexes fold text the same way on every backend: NFKD, combining
   * diacritics removed, NFC, lower case (`foldText`), so `cafe` finds `Café`.
   *
   * `words`: the word index (unicode61-style tokens, diacritics removed).
   * `trigram`: the trigram index (substrings of at least 3 characters; for
   * CJK and words the word index does not split).
   */
  readonly index: "words" | "trigram";
  /** OR-ed; each a word or a quoted phrase of words (`"dark mode"`). */
  readonly terms: readonly string[];
  readonly limit: number;
}

/** One hit of {@link MemoryIndexStore.search}. */
export interface MemoryTextHit {
  readonly record: MemoryRecord;
  /**
   * SQLite FTS5's `bm25()` value and scale: lower is better, usually
   * negative (k1 1.2, b 0.75, whole-table statistics, slug, description and
   * body weighted 1). Every backend returns it on this scale, so a query
   * ranks alike on all of them (`runMemoryIndexCrossBackendContract`). The
   * ranker turns it into a score (`-bm25`, or `1/(1+bm25)` when positive).
   */
  readonly bm25: number;
}

/** File state of one record, for reconciling the index with the Markdown files. */
export interface MemoryFileState extends MemoryKey {
  readonly bodyHash: string;
  readonly fileMtimeMs: number;
  readonly fileSize: number;
}

/** One change of {@link MemoryIndexStore.applyBatch}. */
export type MemoryIndexChange =
  | { readonly kind: "upsert"; readonly record: MemoryRecord; readonly expectedUpdatedAt?: number | null }
  | { readonly kind: "delete"; readonly key: MemoryKey; readonly expectedUpdatedAt?: number };

/** Raised through `applyBatch` when an `expectedUpdatedAt` no longer holds. */
export interface MemoryBatchConflict {
  readonly key: MemoryKey;
  /** The stored `updatedAt`, or `null` when the record does not exist. */
  readonly actualUpdatedAt: number | null;
}

/**
 * The derived index of the memory entries: meta rows, the two full-text
 * indexes, the vectors ({@link MemoryVectorIndex}), the audit log and the
 * organise runs. The Markdown files stay the truth; everything here but the
 * audit log and the runs can be rebuilt from them (vectors by embedding again).
 *
 * Implementations: `KyselyMemoryIndexStore` (SQLite FTS5 and PostgreSQL
 * tsvector + pg_trgm) and `InMemoryMemoryIndexStore`;
 * `runMemoryIndexStoreContract` checks any of them.
 */
export interface MemoryIndexStore extends MemoryVectorIndex {
  get(key: MemoryKey): Promise<MemoryRecord | undefined>;
  list(query: MemoryListQuery): Promise<MemoryListPage>;
  /** Non-daily, non-archived records of one scope (the quota count). */
  countEntries(scope: MemoryScopeRef): Promise<number>;
  search(query: MemoryTextQuery): Promise<readonly MemoryTextHit[]>;
  /**
   * Applies every change and appends every audit entry in one transaction:
   * all or nothing. With `expectedUpdatedAt` set (a number, or `null` for
   * "must not exist"), a change whose record moved on makes the whole batch
   * write nothing and resolve `{ ok: false, conflicts }`.
   */
  applyBatch(
    changes: readonly MemoryIndexChange[],
    audit: readonly MemoryAuditEntry[],
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly conflicts: readonly MemoryBatchConflict[] }>;
  /** Every record's file state (for reconcile on open). */
  fileStates(): Promise<readonly MemoryFileState[]>;
  /** Audit entries, newest first (by `at`, then by order of insertion); `limit` defaults to 100. */
  audit(query?: { readonly slug?: string; readonly limit?: number }): Promise<readonly MemoryAuditEntry[]>;
  /** Inserts or replaces a run by id. */
  saveOrganizeRun(run: MemoryOrganizeRun): Promise<void>;
  /** Runs, newest first (by `startedAt`, then id descending); `limit` defaults to 50. */
  organizeRuns(limit?: number): Promise<readonly MemoryOrganizeRun[]>;
  /** Releases what the store itself opened (never a storage it was given). */
  close?(): Promise<void>;
}
