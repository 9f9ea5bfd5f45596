import { buildMemorySearchTerms } from "../domain/search-query.js";
import { type RankedMemoryHit, rankMemoryHits, shouldQueryTrigram } from "../domain/search-ranking.js";
import type { StoredMemoryType } from "../domain/memory-types.js";
import type { MemoryIndexStore, MemoryScopeRef, MemoryTextHit } from "../ports/memory-index-store.js";

/** Each full-text query asks the index for at most this many hits. */
const INDEX_HIT_LIMIT = 32;
/** The scan fallback reads at most this many records. */
const SCAN_RECORD_LIMIT = 2_000;

/** A memory search as the service runs it. */
export interface MemorySearchRequest {
  readonly query: string;
  readonly scopes: readonly MemoryScopeRef[];
  readonly types?: readonly StoredMemoryType[];
  readonly includeDaily: boolean;
  readonly includeArchived: boolean;
  readonly limit: number;
  readonly now: number;
  readonly currentWorkdirHash?: string;
}

/** Ranked hits and how they were found. */
export interface MemorySearchOutcome {
  readonly hits: readonly RankedMemoryHit[];
  /** True when neither index found anything and a plain scan of the entries did. */
  readonly usedFallback: boolean;
  /** Which indexes were asked. */
  readonly indexes: readonly ("words" | "trigram" | "scan")[];
}

function typesOf(request: MemorySearchRequest): readonly StoredMemoryType[] | undefined {
  if (request.types !== undefined) return request.types;
  return request.includeDaily ? ["user", "feedback", "project", "reference", "daily"] : ["user", "feedback", "project", "reference"];
}

/**
 * Runs a search: the word index first; the trigram index too when the query
 * holds CJK or the words found fewer than 8 hits; when both found nothing, a
 * scan of the entries for the query's words as substrings (`usedFallback`).
 * Hits are ranked by `rankMemoryHits` (scope and type weights, daily decay,
 * project entries shadowing global ones with the same slug).
 */
export async function searchMemory(store: MemoryIndexStore, request: MemorySearchRequest): Promise<MemorySearchOutcome> {
  const terms = buildMemorySearchTerms(request.query);
  const types = typesOf(request);
  const base = { scopes: request.scopes, types, includeArchived: request.includeArchived, limit: INDEX_HIT_LIMIT };
  const indexes: ("words" | "trigram" | "scan")[] = [];
  let wordHits: readonly MemoryTextHit[] = [];
  if (terms.words.length > 0) {
    indexes.push("words");
    wordHits = await store.search({ ...base, index: "words", terms: terms.words });
  }
  let trigramHits: readonly MemoryTextHit[] = [];
  if (terms.trigram.length > 0 && shouldQueryTrigram(terms.hasCjk, wordHits.length)) {
    indexes.push("trigram");
    trigramHits = await store.search({ ...base, index: "trigram", terms: terms.trigram });
  }
  let scanHits: MemoryTextHit[] = [];
  if (wordHits.length === 0 && trigramHits.length === 0) {
    indexes.push("scan");
    scanHits = await scan(store, request, types);
  }
  const hits = rankMemoryHits({ wordHits, trigramHits, scanHits, now: request.now, currentWorkdirHash: request.currentWorkdirHash, limit: request.limit });
  return { hits, usedFallback: scanHits.length > 0, indexes };
}

async function scan(store: MemoryIndexStore, request: MemorySearchRequest, types: readonly StoredMemoryType[] | undefined): Promise<MemoryTextHit[]> {
  const needles = request.query
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((word) => word.length > 0);
  if (needles.length === 0) return [];
  const page = await store.list({
    scopes: request.scopes,
    types,
    includeDaily: request.includeDaily,
    includeArchived: request.includeArchived,
    offset: 0,
    limit: SCAN_RECORD_LIMIT,
  });
  const hits: MemoryTextHit[] = [];
  for (const record of page.records) {
    const text = `${record.slug}\n${record.description}\n${record.body}`.toLowerCase();
    const found = needles.filter((needle) => text.includes(needle)).length;
    // BM25's convention: lower is better; more matched words rank higher.
    if (found > 0) hits.push({ record, bm25: -found / needles.length });
  }
  return hits;
}
