import { dateLocalToEpochDay } from "./daily-dates.js";
import type { MemoryRecord } from "./memory-types.js";

/**
 * Ranking of search hits: BM25 turned into a score, weighted by scope and
 * type, daily journals decayed by age, duplicates merged, project entries
 * shadowing global ones of the same slug.
 */

/** Weights of the ranking. A project-scope entry weighs `projectScope` whatever its type. */
export const MEMORY_RANK_WEIGHTS = {
  projectScope: 1.4,
  user: 1.3,
  feedback: 1.25,
  reference: 1.0,
  /** A `project`-type entry kept in the global scope. */
  project: 1.0,
  /** Daily journals: `daily * exp(-ageDays / dailyDecayDays)`. */
  daily: 0.35,
  dailyDecayDays: 30,
} as const;

/** Below this many word-index hits the trigram index is asked too. */
export const MEMORY_TRIGRAM_MIN_WORD_HITS = 8;

/**
 * A full-text hit as the ranking reads it; the index store's `MemoryTextHit`
 * has this shape (declared here so the domain does not depend on the ports).
 */
export interface MemoryRankInputHit {
  readonly record: MemoryRecord;
  /** SQLite FTS5's convention: lower is better, usually negative. */
  readonly bm25: number;
}

/** One ranked hit. `matchedBy` names the query that found its best score. */
export interface RankedMemoryHit {
  record: MemoryRecord;
  score: number;
  matchedBy: "words" | "trigram" | "scan";
}

const DAY_MS = 86_400_000;

/** BM25 in SQLite's convention (lower is better) as a score (higher is better). */
export function bm25Score(bm25: number): number {
  return bm25 > 0 ? 1 / (1 + bm25) : -bm25 || 0;
}

/**
 * The weight of a record at `now` (epoch ms). Daily journals decay with the
 * age of their last update (or of their date when no update time is known).
 */
export function memoryRankWeight(record: MemoryRecord, now: number): number {
  if (record.type === "daily") {
    const epochDay = record.dateLocal === undefined ? undefined : dateLocalToEpochDay(record.dateLocal);
    const at = record.updatedAt > 0 ? record.updatedAt : epochDay === undefined ? now : epochDay * DAY_MS;
    const ageDays = Math.max(0, (now - at) / DAY_MS);
    return MEMORY_RANK_WEIGHTS.daily * Math.exp(-ageDays / MEMORY_RANK_WEIGHTS.dailyDecayDays);
  }
  if (record.scope === "project") return MEMORY_RANK_WEIGHTS.projectScope;
  return MEMORY_RANK_WEIGHTS[record.type];
}

/** True when the trigram index should be asked too: the query has CJK, or the word index found fewer than 8 hits. */
export function shouldQueryTrigram(hasCjk: boolean, wordHitCount: number): boolean {
  return hasCjk || wordHitCount < MEMORY_TRIGRAM_MIN_WORD_HITS;
}

/**
 * Merges and ranks the hits of the word index, the trigram index and a scan
 * fallback. Each hit scores `bm25Score(bm25) * memoryRankWeight(record)`; a
 * key found more than once keeps its best score (earlier lists win ties);
 * a global entry is dropped when a project entry with the same slug is among
 * the hits (only one of the current project when `currentWorkdirHash` is
 * given). Order: score descending, then `updatedAt` descending, then slug.
 *
 * @example
 * rankMemoryHits({ wordHits, trigramHits: [], now: Date.now(), currentWorkdirHash, limit: 8 });
 */
export function rankMemoryHits(input: {
  wordHits: readonly MemoryRankInputHit[];
  trigramHits: readonly MemoryRankInputHit[];
  scanHits?: readonly MemoryRankInputHit[];
  now: number;
  currentWorkdirHash?: string;
  limit: number;
}): RankedMemoryHit[] {
  const best = new Map<string, RankedMemoryHit>();
  const sources: [RankedMemoryHit["matchedBy"], readonly MemoryRankInputHit[]][] = [
    ["words", input.wordHits],
    ["trigram", input.trigramHits],
    ["scan", input.scanHits ?? []],
  ];
  for (const [matchedBy, hits] of sources) {
    for (const hit of hits) {
      const score = bm25Score(hit.bm25) * memoryRankWeight(hit.record, input.now);
      const key = JSON.stringify([hit.record.scope, hit.record.workdirHash, hit.record.slug]);
      const previous = best.get(key);
      if (previous === undefined || score > previous.score) best.set(key, { record: hit.record, score, matchedBy });
    }
  }
  const shadowing = new Set<string>();
  for (const hit of best.values()) {
    const { record } = hit;
    if (record.scope === "project" && (input.currentWorkdirHash === undefined || record.workdirHash === input.currentWorkdirHash)) {
      shadowing.add(record.slug);
    }
  }
  const ranked = [...best.values()].filter((hit) => hit.record.scope !== "global" || !shadowing.has(hit.record.slug));
  ranked.sort(compareRankedHits);
  return ranked.slice(0, Math.max(0, input.limit));
}

function compareRankedHits(left: RankedMemoryHit, right: RankedMemoryHit): number {
  if (left.score !== right.score) return right.score - left.score;
  if (left.record.updatedAt !== right.record.updatedAt) return right.record.updatedAt - left.record.updatedAt;
  if (left.record.slug !== right.record.slug) return left.record.slug < right.record.slug ? -1 : 1;
  if (left.record.scope !== right.record.scope) return left.record.scope < right.record.scope ? -1 : 1;
  return left.record.workdirHash < right.record.workdirHash ? -1 : left.record.workdirHash > right.record.workdirHash ? 1 : 0;
}
