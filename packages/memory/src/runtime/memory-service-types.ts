import type { MemoryToolErrorJson } from "../domain/memory-errors.js";
import type { MemoryRecord, MemoryScope, MemoryScopeQuery, StoredMemoryType } from "../domain/memory-types.js";
import type { FusedMemoryHit } from "../domain/hybrid-fusion.js";
import type { MemoryChangeNotes, MemoryChangeOptions, MemoryEvidenceInput, MemoryUpdateMode } from "./memory-mutations.js";
import type { MemoryHistoryHit, MemoryHistoryTimeMode } from "./memory-history.js";
import type { MemorySearchIndex } from "./memory-hybrid-search.js";

/** A refusal the model is told about (slug, quota, risk, size, not found, conflict...). */
export interface MemoryRefusal {
  readonly ok: false;
  readonly error: MemoryToolErrorJson;
}

/** Query of {@link MemoryService.list}. */
export interface MemoryListRequest {
  readonly scope?: MemoryScopeQuery;
  readonly filterType?: StoredMemoryType;
  readonly includeDaily?: boolean;
  readonly includeArchived?: boolean;
  readonly offset?: number;
  readonly limit?: number;
}

/** One listed entry; `shadowed` when a project entry with the same slug hides this global one. */
export interface MemoryListItem {
  readonly record: MemoryRecord;
  readonly shadowed: boolean;
}

/** Answer of {@link MemoryService.list}. */
export interface MemoryListResult {
  readonly ok: true;
  readonly items: readonly MemoryListItem[];
  readonly total: number;
  readonly offset: number;
  readonly limit: number;
}

/** Query of {@link MemoryService.read}. */
export interface MemoryReadRequest {
  readonly slug: string;
  readonly scope?: MemoryScopeQuery;
  /** First line, 1-based. */
  readonly offset?: number;
  /** Lines, at most 500. */
  readonly length?: number;
}

/** Answer of {@link MemoryService.read}. */
export interface MemoryReadResult {
  readonly ok: true;
  readonly record: MemoryRecord;
  /** The requested lines of the body. */
  readonly lines: readonly string[];
  /** 1-based line of `lines[0]`. */
  readonly startLine: number;
  readonly totalLines: number;
}

/** Query of {@link MemoryService.search}. */
export interface MemorySearchRequestInput {
  readonly query: string;
  readonly scope?: MemoryScopeQuery;
  readonly filterType?: StoredMemoryType;
  readonly includeDaily?: boolean;
  readonly includeArchived?: boolean;
  readonly limit?: number;
  readonly includeHistory?: boolean;
  readonly historySince?: number;
  readonly historyUntil?: number;
  readonly historyDateLocal?: string;
  readonly historyTimeMode?: MemoryHistoryTimeMode;
  readonly signal?: AbortSignal;
}

/** Answer of {@link MemoryService.search}. */
export interface MemorySearchResult {
  readonly ok: true;
  /** Ranked hits; `matchedBy` is `vector` for an entry only the vector index found. */
  readonly hits: readonly FusedMemoryHit[];
  readonly usedFallback: boolean;
  /** The indexes that answered (`vector` when the embedder and the vector index did). */
  readonly indexes: readonly MemorySearchIndex[];
  /** Why the search answered from the lexical indexes only although an embedder is set. */
  readonly vectorError?: string;
  /** How many stored vectors the vector index left out as damaged (present only when it left any out). */
  readonly vectorSkipped?: number;
  /** Chat-history hits (untrusted text), when asked for and available. */
  readonly history?: readonly MemoryHistoryHit[];
  /** Why history was not searched, when it was asked for. */
  readonly historyNote?: string;
}

/** Input of {@link MemoryService.write}. */
export interface MemoryWriteRequest extends MemoryEvidenceInput {
  readonly slug: string;
  readonly scope: MemoryScope | string;
  readonly type: string;
  readonly description: string;
  readonly body: string;
}

/** Input of {@link MemoryService.update}. */
export interface MemoryUpdateRequest extends MemoryEvidenceInput {
  readonly slug: string;
  readonly scope: MemoryScope | string;
  /** Default `replace` (the extractor's batches default to `merge`). */
  readonly mode?: MemoryUpdateMode;
  readonly body?: string;
  readonly description?: string;
  readonly type?: string;
}

/** Input of {@link MemoryService.delete} and {@link MemoryService.accept}. */
export interface MemoryKeyRequest {
  readonly slug: string;
  readonly scope: MemoryScope | string;
}

/** Answer of a successful change. */
export interface MemoryChangeResult extends MemoryChangeNotes {
  readonly ok: true;
  /** `created`, `overwritten`, `updated`, `deleted`, `accepted`, `appended`. */
  readonly outcome: "created" | "overwritten" | "updated" | "deleted" | "accepted" | "appended";
  /** The entry after the change (undefined after a delete). */
  readonly record?: MemoryRecord;
  readonly slug: string;
  readonly scope: MemoryScope;
}

/** Options of a change made through the service. */
export type MemoryServiceChangeOptions = MemoryChangeOptions & { readonly signal?: AbortSignal };
