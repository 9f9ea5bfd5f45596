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

/** Expansion terms (a question's fixed expansions) weigh this much of the user's own words. */
export const MEMORY_EXPANSION_WEIGHT = 0.5;

/**
 * Stop words break ties: a hit the other queries found gains this much of
 * what the query's stop words add to its BM25 (its score on the query with
 * its stop words minus its score on the words alone).
 */
export const MEMORY_STOP_WORD_WEIGHT = 0.25;

/**
 * An inflection of a query word (`hobby` for "hobbies") counts this much of
 * the word itself: a hit gains this share of what the inflections add to its
 * BM25 (its score on the words with their inflections minus its score on the
 * words alone). Measured (docs/memory-retrieval.md, "Lexical ranking"):
 * counted fully, recall@5 on the real corpus is 52.4 and the written
 * corpus's preference and superseded questions lose ground; at 0.65 the
 * real corpus gives 53.1 and no written kind is below its figure without
 * inflections.
 */
export const MEMORY_INFLECTION_WEIGHT = 0.65;

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

/**
 * One ranked hit. `matchedBy` names the query that found its best score
 * (`vector` only for a hit of a hybrid search that the vector index alone found).
 */
export interface RankedMemoryHit {
  record: MemoryRecord;
  score: number;
  matchedBy: "words" | "trigram" | "scan" | "vector";
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

/** Where a hit list came from; earlier tiers rank first whatever the score. */
type HitSource = "words" | "expansion" | "trigram" | "scan";

interface Candidate {
  hit: RankedMemoryHit;
  /** 0: the query's words (and trigram hits of a CJK query); 1: trigram-only hits of a non-CJK query; 2: stop words; 3: scan. */
  tier: number;
  /** The weight of its record (scope, type, daily decay). */
  weight: number;
}

const KEY = (record: Pick<MemoryRecord, "scope" | "workdirHash" | "slug">) => JSON.stringify([record.scope, record.workdirHash, record.slug]);

/**
 * Merges and ranks the hits of the word index (the query's words, its words
 * with their inflections, whose share counts {@link MEMORY_INFLECTION_WEIGHT}
 * ({@link mergeInflectedHits}), its expansions at
 * {@link MEMORY_EXPANSION_WEIGHT}, and its words together with its stop
 * words), the trigram index and a scan fallback. Each hit scores
 * `bm25Score(bm25) * memoryRankWeight(record)` (times the expansion weight
 * for expansion hits). Hits fall in tiers ranked one after the other: word
 * and expansion hits (and trigram hits when `trigramBelowWords` is false,
 * inflection-only hits unless `inflectionsBelowWords`), then trigram-only
 * hits, then hits found only with the stop words, then
 * scan hits. A key found more than once keeps its best tier and score. The
 * stop words then break ties: a hit of the other queries also found with the
 * stop words gains {@link MEMORY_STOP_WORD_WEIGHT} of the score they add
 * (its stop-word score minus its word score, weighted like it; never below
 * zero). A global entry is dropped when a project entry with the same slug
 * is among the hits (only one of the current project when
 * `currentWorkdirHash` is given). An entry another hit supersedes
 * (`links.supersedes`) is placed just below it. Order: tier, score
 * descending, then `updatedAt` descending, then slug.
 *
 * @example
 * rankMemoryHits({ wordHits, trigramHits: [], now: Date.now(), currentWorkdirHash, limit: 8 });
 */
export function rankMemoryHits(input: {
  wordHits: readonly MemoryRankInputHit[];
  /** Hits of the query's words and their inflections OR-ed together; their share over `wordHits` counts {@link MEMORY_INFLECTION_WEIGHT}. */
  inflectedHits?: readonly MemoryRankInputHit[];
  expansionHits?: readonly MemoryRankInputHit[];
  trigramHits: readonly MemoryRankInputHit[];
  /** Hits of the query's words and stop words OR-ed together (the stop words alone when it has no other words). */
  stopWordHits?: readonly MemoryRankInputHit[];
  scanHits?: readonly MemoryRankInputHit[];
  /** Rank trigram-only hits after every word hit (queries without CJK). */
  trigramBelowWords?: boolean;
  /**
   * Rank hits found only through the inflections with the trigram-only hits,
   * after every hit of the words themselves (the search sets it when the words
   * alone found fewer than {@link MEMORY_TRIGRAM_MIN_WORD_HITS} hits: a
   * substring of a word then outweighs an inflection).
   */
  inflectionsBelowWords?: boolean;
  now: number;
  currentWorkdirHash?: string;
  limit: number;
}): RankedMemoryHit[] {
  const best = new Map<string, Candidate>();
  const inflected = input.inflectedHits ?? [];
  const wordHits = inflected.length === 0 ? input.wordHits : mergeInflectedHits(input.wordHits, inflected);
  const sources: [HitSource, readonly MemoryRankInputHit[]][] = [
    ["words", wordHits],
    ["expansion", input.expansionHits ?? []],
    ["trigram", input.trigramHits],
    ["scan", input.scanHits ?? []],
  ];
  const wordKeys = new Set(input.wordHits.map((hit) => KEY(hit.record)));
  const inflectionOnlyTier = input.inflectionsBelowWords === true ? 1 : 0;
  for (const [source, hits] of sources) {
    const sourceTier = source === "trigram" ? (input.trigramBelowWords === true ? 1 : 0) : source === "scan" ? 3 : 0;
    const factor = source === "expansion" ? MEMORY_EXPANSION_WEIGHT : 1;
    const matchedBy: RankedMemoryHit["matchedBy"] = source === "trigram" || source === "scan" ? source : "words";
    for (const hit of hits) {
      const weight = memoryRankWeight(hit.record, input.now);
      const score = bm25Score(hit.bm25) * weight * factor;
      const key = KEY(hit.record);
      const tier = source === "words" && !wordKeys.has(key) ? inflectionOnlyTier : sourceTier;
      const previous = best.get(key);
      if (previous === undefined || tier < previous.tier || (tier === previous.tier && score > previous.hit.score)) {
        best.set(key, { hit: { record: hit.record, score, matchedBy }, tier, weight });
      }
    }
  }
  addStopWordShares(best, input.wordHits, input.stopWordHits ?? [], input.now);
  const shadowing = new Set<string>();
  for (const { hit } of best.values()) {
    const { record } = hit;
    if (record.scope === "project" && (input.currentWorkdirHash === undefined || record.workdirHash === input.currentWorkdirHash)) {
      shadowing.add(record.slug);
    }
  }
  const ranked = [...best.values()].filter(({ hit }) => hit.record.scope !== "global" || !shadowing.has(hit.record.slug));
  placeSupersededBelow(ranked);
  ranked.sort(compareCandidates);
  return ranked.slice(0, Math.max(0, input.limit)).map(({ hit }) => hit);
}

/**
 * The word hits with the inflections' share discounted: a key's score is its
 * score on the words alone plus {@link MEMORY_INFLECTION_WEIGHT} of what the
 * inflections add (never negative); a key only the inflected query found
 * keeps that weight of its score. Returned as BM25 values (SQLite's
 * convention), in no particular order.
 *
 * @example
 * mergeInflectedHits([{ record, bm25: -2 }], [{ record, bm25: -3 }]); // [{ record, bm25: -2.75 }]
 */
export function mergeInflectedHits(wordHits: readonly MemoryRankInputHit[], inflectedHits: readonly MemoryRankInputHit[]): MemoryRankInputHit[] {
  const merged = new Map<string, { record: MemoryRecord; words: number; inflected: number }>();
  for (const hit of wordHits) {
    const key = KEY(hit.record);
    const previous = merged.get(key);
    merged.set(key, { record: hit.record, words: Math.max(previous?.words ?? 0, bm25Score(hit.bm25)), inflected: previous?.inflected ?? 0 });
  }
  for (const hit of inflectedHits) {
    const key = KEY(hit.record);
    const previous = merged.get(key);
    merged.set(key, {
      record: previous?.record ?? hit.record,
      words: previous?.words ?? 0,
      inflected: Math.max(previous?.inflected ?? 0, bm25Score(hit.bm25)),
    });
  }
  return [...merged.values()].map(({ record, words, inflected }) => ({
    record,
    bm25: -(words + MEMORY_INFLECTION_WEIGHT * Math.max(0, inflected - words)),
  }));
}

/**
 * Stop words as a tie-breaker: a candidate gains {@link MEMORY_STOP_WORD_WEIGHT}
 * of what the stop words add to its BM25; a hit found only with the stop
 * words becomes a candidate of tier 2.
 */
function addStopWordShares(
  best: Map<string, Candidate>,
  wordHits: readonly MemoryRankInputHit[],
  stopWordHits: readonly MemoryRankInputHit[],
  now: number,
): void {
  if (stopWordHits.length === 0) return;
  const wordScores = new Map<string, number>();
  for (const hit of wordHits) wordScores.set(KEY(hit.record), Math.max(wordScores.get(KEY(hit.record)) ?? 0, bm25Score(hit.bm25)));
  for (const hit of stopWordHits) {
    const key = KEY(hit.record);
    const share = Math.max(0, bm25Score(hit.bm25) - (wordScores.get(key) ?? 0));
    const candidate = best.get(key);
    if (candidate !== undefined) {
      candidate.hit = { ...candidate.hit, score: candidate.hit.score + share * candidate.weight * MEMORY_STOP_WORD_WEIGHT };
      continue;
    }
    const weight = memoryRankWeight(hit.record, now);
    best.set(key, { hit: { record: hit.record, score: bm25Score(hit.bm25) * weight, matchedBy: "words" }, tier: 2, weight });
  }
}

function placeSupersededBelow(candidates: Candidate[]): void {
  placeSupersededHitsBelow(
    candidates,
    (older, newer) => compareCandidates(older, newer) < 0 || older.tier < newer.tier,
    (older, newer) => {
      older.tier = newer.tier;
    },
  );
}

/**
 * Moves every entry whose hit another hit supersedes just below that hit (a
 * slightly lower score), following chains of replacements. A superseded slug
 * is looked up in the superseding entry's own scope first, then in any scope
 * among the hits. `outranks(older, newer)` says whether the superseded entry
 * still sits above the superseding one; `demote` adjusts any extra ordering
 * state (such as a tier) before the score is lowered. Shared by the lexical
 * ranking and the hybrid fusion.
 */
export function placeSupersededHitsBelow<T extends { hit: RankedMemoryHit }>(
  entries: T[],
  outranks: (older: T, newer: T) => boolean,
  demote?: (older: T, newer: T) => void,
): void {
  const bySlug = new Map<string, T[]>();
  for (const entry of entries) {
    const list = bySlug.get(entry.hit.record.slug) ?? [];
    list.push(entry);
    bySlug.set(entry.hit.record.slug, list);
  }
  for (let round = 0; round < entries.length; round += 1) {
    let moved = false;
    for (const newer of entries) {
      const target = newer.hit.record.links?.supersedes;
      if (target === undefined || target === newer.hit.record.slug) continue;
      const matches = bySlug.get(target) ?? [];
      const sameScope = matches.filter(
        (older) => older.hit.record.scope === newer.hit.record.scope && older.hit.record.workdirHash === newer.hit.record.workdirHash,
      );
      for (const older of sameScope.length > 0 ? sameScope : matches) {
        if (outranks(older, newer)) {
          demote?.(older, newer);
          older.hit = { ...older.hit, score: newer.hit.score - Math.max(Math.abs(newer.hit.score) * 1e-6, 1e-9) };
          moved = true;
        }
      }
    }
    if (!moved) return;
  }
}

function compareCandidates(left: Candidate, right: Candidate): number {
  return left.tier - right.tier || compareRankedHits(left.hit, right.hit);
}

function compareRankedHits(left: RankedMemoryHit, right: RankedMemoryHit): number {
  if (left.score !== right.score) return right.score - left.score;
  if (left.record.updatedAt !== right.record.updatedAt) return right.record.updatedAt - left.record.updatedAt;
  if (left.record.slug !== right.record.slug) return left.record.slug < right.record.slug ? -1 : 1;
  if (left.record.scope !== right.record.scope) return left.record.scope < right.record.scope ? -1 : 1;
  return left.record.workdirHash < right.record.workdirHash ? -1 : left.record.workdirHash > right.record.workdirHash ? 1 : 0;
}
