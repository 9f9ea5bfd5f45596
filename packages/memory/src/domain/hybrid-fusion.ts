/**
 * Hybrid ranking: the lexical search's ranked hits fused with the vector
 * index's nearest neighbours. Pure; the rules lexical search applies to its
 * own hits (types, archived, project entries shadowing global ones of the
 * same slug, superseded entries below their replacement) are applied to the
 * fused list, so a hit found only by meaning obeys them too.
 */
import type { MemoryRecord, StoredMemoryType } from "./memory-types.js";
import { type RankedMemoryHit, memoryRankWeight, placeSupersededHitsBelow } from "./search-ranking.js";

/** A nearest neighbour as fusion reads it; the vector index's `MemoryVectorHit` has this shape. */
export interface MemoryFusionVectorHit {
  readonly record: MemoryRecord;
  /** Cosine similarity, -1..1. */
  readonly similarity: number;
}

/** A fused hit (a ranked hit): a lexical hit keeps its `matchedBy`; a hit only the vector index found says `vector`. */
export type FusedMemoryHit = RankedMemoryHit;

/** How the two rankings are fused. */
export interface MemoryHybridFusionSettings {
  /**
   * `rrf`: reciprocal rank fusion, each list adding `weight * (k + 1) / (k + rank)`
   * (so a first place in both scores `lexicalWeight + vectorWeight`).
   * `score`: each list's own scores scaled to 0..1 by its best, then added
   * with the weights.
   */
  readonly method: "rrf" | "score";
  /** RRF's rank constant. */
  readonly k: number;
  readonly lexicalWeight: number;
  readonly vectorWeight: number;
  /** Vector hits whose similarity is not above this are dropped (with 0: orthogonal and opposite ones, which share nothing with the query). */
  readonly similarityFloor: number;
  /** Order the vector hits by similarity times the record's scope/type weight and daily decay (as lexical scores are). */
  readonly rankWeighted: boolean;
}

/**
 * The fusion the SDK uses, chosen on the real-conversation corpus's tuning
 * sets (bench/memory/hybrid-fusion-tuning.ts; docs/memory-hybrid-search.md,
 * "The measured choice"): rank fusion with k 1 and the vector list at 0.25, so
 * the lexical order leads (its first place adds 1, its fifth 0.33) and the
 * vector index's first place (0.25) lifts an entry both found, or brings in
 * one the words missed just below the lexical sixth place. Plain RRF (k 60,
 * equal weights) lost about 5 points of recall@5 to lexical alone with the
 * offline embedder; this gains 0.3 and loses no question kind at recall@5.
 */
export const MEMORY_HYBRID_FUSION: MemoryHybridFusionSettings = {
  method: "rrf",
  k: 1,
  lexicalWeight: 1,
  vectorWeight: 0.25,
  similarityFloor: 0,
  rankWeighted: true,
};

/** Input of {@link fuseMemoryHits}. */
export interface MemoryHybridFusionInput {
  /** The lexical search's ranked hits, best first (shadowing and supersession already applied among them). */
  readonly lexical: readonly RankedMemoryHit[];
  /** The vector index's hits, best first. */
  readonly vector: readonly MemoryFusionVectorHit[];
  /** Types the search covers (vector hits of other types are dropped); undefined: every type. */
  readonly types?: readonly StoredMemoryType[];
  readonly includeArchived: boolean;
  readonly now: number;
  /** The current project: only its entries shadow global ones. */
  readonly currentWorkdirHash?: string;
  readonly limit: number;
  /** Default {@link MEMORY_HYBRID_FUSION}. */
  readonly settings?: MemoryHybridFusionSettings;
}

interface Fused {
  hit: FusedMemoryHit;
}

/** Largest similarity taken as a cosine (float32 rounding of unit vectors stays well within it). */
const MAX_SIMILARITY = 1.001;

const keyOf = (record: Pick<MemoryRecord, "scope" | "workdirHash" | "slug">) => `${record.scope}\u0000${record.workdirHash}\u0000${record.slug}`;

/** Vector hits the search may show, in the order fusion ranks them. */
function rankVectorHits(input: MemoryHybridFusionInput, settings: MemoryHybridFusionSettings): { record: MemoryRecord; value: number }[] {
  const types = input.types === undefined ? undefined : new Set(input.types);
  const seen = new Set<string>();
  const ranked: { record: MemoryRecord; value: number }[] = [];
  for (const { record, similarity } of input.vector) {
    // NaN fails the floor; a similarity past 1 (a damaged stored vector, not unit length) is not a cosine: dropped, never ranked first.
    if (!(similarity > settings.similarityFloor) || !(similarity <= MAX_SIMILARITY)) continue;
    if (types !== undefined && !types.has(record.type)) continue;
    if (record.archived && !input.includeArchived) continue;
    const key = keyOf(record);
    if (seen.has(key)) continue;
    seen.add(key);
    ranked.push({ record, value: settings.rankWeighted ? similarity * memoryRankWeight(record, input.now) : similarity });
  }
  return ranked.sort((left, right) => right.value - left.value || compareRecords(left.record, right.record));
}

/**
 * Fuses the lexical and the vector ranking (see {@link MemoryHybridFusionSettings}).
 * A global entry is dropped when an entry of the current project with the
 * same slug is among either list's hits; an entry another hit supersedes is
 * placed just below it. Order: fused score descending, then `updatedAt`
 * descending, then slug, scope and project.
 *
 * @example
 * fuseMemoryHits({ lexical, vector, includeArchived: false, now: Date.now(), currentWorkdirHash, limit: 8 });
 */
export function fuseMemoryHits(input: MemoryHybridFusionInput): FusedMemoryHit[] {
  const settings = input.settings ?? MEMORY_HYBRID_FUSION;
  const vector = rankVectorHits(input, settings);
  const fused = new Map<string, Fused>();
  const add = (record: MemoryRecord, share: number, matchedBy: FusedMemoryHit["matchedBy"]) => {
    const key = keyOf(record);
    const previous = fused.get(key);
    if (previous === undefined) fused.set(key, { hit: { record, score: share, matchedBy } });
    else previous.hit = { ...previous.hit, score: previous.hit.score + share };
  };
  const lexicalBest = Math.max(0, ...input.lexical.map((hit) => hit.score));
  const vectorBest = Math.max(0, ...vector.map((hit) => hit.value));
  input.lexical.forEach((hit, index) => {
    const share = settings.method === "rrf" ? rrfShare(index, settings) : lexicalBest > 0 ? Math.max(0, hit.score) / lexicalBest : 0;
    add(hit.record, settings.lexicalWeight * share, hit.matchedBy);
  });
  vector.forEach((hit, index) => {
    const share = settings.method === "rrf" ? rrfShare(index, settings) : vectorBest > 0 ? Math.max(0, hit.value) / vectorBest : 0;
    add(hit.record, settings.vectorWeight * share, "vector");
  });
  const shadowing = new Set<string>();
  for (const { hit } of fused.values()) {
    const { record } = hit;
    if (record.scope === "project" && (input.currentWorkdirHash === undefined || record.workdirHash === input.currentWorkdirHash)) shadowing.add(record.slug);
  }
  const kept = [...fused.values()].filter(({ hit }) => hit.record.scope !== "global" || !shadowing.has(hit.record.slug));
  placeSupersededBelow(kept);
  kept.sort((left, right) => compareFused(left.hit, right.hit));
  return kept.slice(0, Math.max(0, input.limit)).map(({ hit }) => hit);
}

/** RRF's share of the hit at 0-based `index`, scaled so the first place adds 1. */
function rrfShare(index: number, settings: MemoryHybridFusionSettings): number {
  return (settings.k + 1) / (settings.k + index + 1);
}

/** Moves every hit another hit supersedes just below it, following chains. */
function placeSupersededBelow(hits: Fused[]): void {
  placeSupersededHitsBelow(hits, (older, newer) => compareFused(older.hit, newer.hit) < 0);
}

function compareFused(left: FusedMemoryHit, right: FusedMemoryHit): number {
  if (left.score !== right.score) return right.score - left.score;
  return compareRecords(left.record, right.record);
}

function compareRecords(left: MemoryRecord, right: MemoryRecord): number {
  if (left.updatedAt !== right.updatedAt) return right.updatedAt - left.updatedAt;
  if (left.slug !== right.slug) return left.slug < right.slug ? -1 : 1;
  if (left.scope !== right.scope) return left.scope < right.scope ? -1 : 1;
  return left.workdirHash < right.workdirHash ? -1 : left.workdirHash > right.workdirHash ? 1 : 0;
}
