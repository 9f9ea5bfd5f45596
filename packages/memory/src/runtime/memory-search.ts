import { buildMemorySearchTerms } from "../domain/search-query.js";
import { MEMORY_TRIGRAM_MIN_WORD_HITS, type RankedMemoryHit, rankMemoryHits, shouldQueryTrigram } from "../domain/search-ranking.js";
import { isTrigramMatch } from "../domain/search-trigram-match.js";
import type { StoredMemoryType } from "../domain/memory-types.js";
import type { MemoryIndexStore, MemoryScopeRef, MemoryTextHit } from "../ports/memory-index-store.js";

/** Each full-text query asks the index for at most this many hits. */
const INDEX_HIT_LIMIT = 32;
/** The scan fallback reads at most this many records. */
const SCAN_RECORD_LIMIT = 1_000;

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
 * Runs a search: the word index with the query's words first, with the
 * words and their regular inflections (what the inflections add weighted
 * lower), and with the terms of the fixed expansions its question matches (weighted lower); the
 * trigram index too when the query holds CJK or the words found fewer than 8
 * hits (for a query without CJK its hits rank after the word hits, and a
 * three-letter term found only inside a longer word does not count). When
 * neither index found anything: the word index with the query's stop words,
 * and when that finds nothing too, a scan of the asked scopes' entries for
 * the query's words that the trigram index could not have looked for (too
 * short, or holding punctuation), reported as `usedFallback`. Hits are ranked
 * by `rankMemoryHits` (tiers, scope and type weights, daily decay, project
 * entries shadowing global ones with the same slug, superseded entries below
 * their replacements).
 */
export async function searchMemory(store: MemoryIndexStore, request: MemorySearchRequest): Promise<MemorySearchOutcome> {
  const terms = buildMemorySearchTerms(request.query);
  const types = typesOf(request);
  const base = { scopes: request.scopes, types, includeArchived: request.includeArchived, limit: INDEX_HIT_LIMIT };
  const indexes: ("words" | "trigram" | "scan")[] = [];
  const words = async (list: readonly string[]): Promise<readonly MemoryTextHit[]> => {
    if (list.length === 0) return [];
    if (!indexes.includes("words")) indexes.push("words");
    return store.search({ ...base, index: "words", terms: list });
  };
  const trigram = async (): Promise<readonly MemoryTextHit[]> => {
    indexes.push("trigram");
    const found = await store.search({ ...base, index: "trigram", terms: terms.trigram });
    return terms.hasCjk ? found : found.filter((hit) => isTrigramMatch(`${hit.record.slug}\n${hit.record.description}\n${hit.record.body}`, terms.trigram));
  };
  // The searches that do not wait on another's answer are asked together: a store with a pool of connections (PostgreSQL)
  // answers them side by side, one round trip of latency instead of up to four. Only the trigram search of a query
  // without CJK waits, on the word hits' count. (Asking it together too, and dropping its answer when the words found
  // enough, made PostgreSQL's p50 at 100,000 entries worse, 7.0 -> 11.7 ms: it is the costliest statement.)
  const trigramFirst = terms.trigram.length > 0 && terms.hasCjk;
  // The words' inflections: light stemming done on the query side, the same on every backend. Asked with the words in
  // a query of their own, so that what they add is weighted below the words' own score. Not in the stop-word query: it
  // breaks ties of the words alone, and inflections there made every search dearer (SQLite p50 on real questions
  // 8.5 -> 12.5 ms with them in both, 6.3 -> 9.5 ms with them in one; loaded machine, same run) for no recall.
  const ownWords = [...terms.words, ...terms.inflections];
  const [wordHits, inflectedHits, expansionHits, stopWordHits, cjkTrigramHits] = await Promise.all([
    words(terms.words),
    terms.inflections.length === 0 ? [] : words(ownWords),
    words(terms.expansions),
    // The stop words break ties among the other hits (and find something when nothing else did).
    terms.stopWords.length === 0 ? [] : words([...terms.words, ...terms.stopWords]),
    trigramFirst ? trigram() : undefined,
  ]);
  let trigramHits: readonly MemoryTextHit[] = cjkTrigramHits ?? [];
  // Whether the words found enough is judged on the words alone: an inflection is weaker evidence than a substring.
  if (!trigramFirst && terms.trigram.length > 0 && shouldQueryTrigram(terms.hasCjk, wordHits.length)) trigramHits = await trigram();
  let scanHits: MemoryTextHit[] = [];
  if (wordHits.length === 0 && inflectedHits.length === 0 && expansionHits.length === 0 && trigramHits.length === 0 && stopWordHits.length === 0) {
    // The trigram index already looked for every needle it could hold and found none of them.
    const needles = terms.scan.filter((needle) => !terms.trigram.includes(needle));
    if (needles.length > 0) {
      indexes.push("scan");
      scanHits = await scan(store, request, types, needles);
    }
  }
  const hits = rankMemoryHits({
    wordHits,
    inflectedHits,
    expansionHits,
    trigramHits,
    stopWordHits,
    scanHits,
    trigramBelowWords: !terms.hasCjk,
    inflectionsBelowWords: wordHits.length < MEMORY_TRIGRAM_MIN_WORD_HITS,
    now: request.now,
    currentWorkdirHash: request.currentWorkdirHash,
    limit: request.limit,
  });
  return { hits, usedFallback: scanHits.length > 0, indexes };
}

/**
 * The scan fallback: at most {@link SCAN_RECORD_LIMIT} entries of the asked
 * scopes (newest first), each needle's occurrences scored with BM25's
 * term-frequency saturation (k1 1.2) on SQLite's scale.
 */
async function scan(
  store: MemoryIndexStore,
  request: MemorySearchRequest,
  types: readonly StoredMemoryType[] | undefined,
  needles: readonly string[],
): Promise<MemoryTextHit[]> {
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
    let rank = 0;
    for (const needle of needles) {
      const occurrences = text.split(needle).length - 1;
      if (occurrences > 0) rank -= (occurrences * 2.2) / (occurrences + 1.2);
    }
    // BM25's convention: lower is better.
    if (rank < 0) hits.push({ record, bm25: rank });
  }
  return hits;
}
