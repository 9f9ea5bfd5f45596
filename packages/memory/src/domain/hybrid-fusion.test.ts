import { describe, expect, it } from "vitest";
import { MEMORY_HYBRID_FUSION, type MemoryHybridFusionSettings, fuseMemoryHits } from "./hybrid-fusion.js";
import type { MemoryRecord } from "./memory-types.js";
import type { RankedMemoryHit } from "./search-ranking.js";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 30, 12);
const PROJECT = "0123456789abcdef";

function record(overrides: Partial<MemoryRecord> & Pick<MemoryRecord, "slug">): MemoryRecord {
  return memoryRecord({ type: "reference", body: "", createdAt: 0, updatedAt: NOW - DAY, ...overrides });
}

const lexical = (...records: MemoryRecord[]): RankedMemoryHit[] => records.map((record, index) => ({ record, score: 10 - index, matchedBy: "words" }));
const vector = (...pairs: [MemoryRecord, number][]) => pairs.map(([record, similarity]) => ({ record, similarity }));
const slugs = (hits: readonly { record: { slug: string; scope: string } }[]) => hits.map((hit) => `${hit.record.scope}/${hit.record.slug}`);
const base = { includeArchived: false, now: NOW, currentWorkdirHash: PROJECT, limit: 10 };

describe("fuseMemoryHits", () => {
  it("adds the reciprocal ranks of both lists (first place worth the list's weight)", () => {
    const a = record({ slug: "a" });
    const b = record({ slug: "b" });
    const c = record({ slug: "c" });
    const settings: MemoryHybridFusionSettings = { ...MEMORY_HYBRID_FUSION, k: 60, vectorWeight: 1 };
    const hits = fuseMemoryHits({ ...base, lexical: lexical(a, b), vector: vector([b, 0.9], [c, 0.8]), settings });
    expect(slugs(hits)).toEqual(["global/b", "global/a", "global/c"]);
    expect(hits[0]).toMatchObject({ matchedBy: "words", score: 61 / 62 + 1 });
    expect(hits[1]?.score).toBe(1);
    expect(hits[2]).toMatchObject({ matchedBy: "vector", score: 61 / 62 });
  });

  it("by default lets the lexical order lead: a vector-only first place ranks below the lexical sixth", () => {
    const words = ["w1", "w2", "w3", "w4", "w5", "w6"].map((slug) => record({ slug }));
    const meaning = record({ slug: "meaning" });
    const hits = fuseMemoryHits({ ...base, lexical: lexical(...words), vector: vector([meaning, 0.9], [words[3]!, 0.8]) });
    // w4 (lexical 4th: 2/5 = 0.4, vector 2nd: 0.25 * 2/3 = 0.17) passes w3 (0.5); meaning (0.25) comes after w6 (2/7).
    expect(slugs(hits).map((name) => name.slice("global/".length))).toEqual(["w1", "w2", "w4", "w3", "w5", "w6", "meaning"]);
  });

  it("keeps the lexical order when there are no vector hits, and the vector order when there are no lexical ones", () => {
    const [a, b, c] = ["a", "b", "c"].map((slug) => record({ slug }));
    expect(slugs(fuseMemoryHits({ ...base, lexical: lexical(a!, b!, c!), vector: [] }))).toEqual(["global/a", "global/b", "global/c"]);
    expect(slugs(fuseMemoryHits({ ...base, lexical: [], vector: vector([c!, 0.2], [a!, 0.9], [b!, 0.5]) }))).toEqual(["global/a", "global/b", "global/c"]);
  });

  it("drops vector hits that share nothing with the query (similarity 0 or below) and similarities that are not cosines", () => {
    const related = record({ slug: "related" });
    const orthogonal = record({ slug: "orthogonal" });
    const opposite = record({ slug: "opposite" });
    // A damaged stored vector can give NaN or a "similarity" past 1: neither is a cosine, neither is ranked.
    const broken = [record({ slug: "nan" }), record({ slug: "huge" }), record({ slug: "infinite" })];
    const hits = fuseMemoryHits({
      ...base,
      lexical: [],
      vector: vector([broken[2]!, Number.POSITIVE_INFINITY], [broken[1]!, 1e38], [related, 0.2], [broken[0]!, Number.NaN], [orthogonal, 0], [opposite, -0.4]),
    });
    expect(slugs(hits)).toEqual(["global/related"]);
  });

  it("drops vector hits of other types, archived ones (unless asked) and those not above the similarity floor", () => {
    const daily = record({ slug: "daily-2026-06-29", type: "daily", dateLocal: "2026-06-29" });
    const archived = record({ slug: "old", archived: true });
    const weak = record({ slug: "weak" });
    const kept = record({ slug: "kept" });
    const settings: MemoryHybridFusionSettings = { ...MEMORY_HYBRID_FUSION, similarityFloor: 0.3 };
    const input = { ...base, lexical: [], vector: vector([daily, 0.9], [archived, 0.8], [weak, 0.1], [kept, 0.5]), settings };
    expect(slugs(fuseMemoryHits({ ...input, types: ["reference", "user"] }))).toEqual(["global/kept"]);
    // The day-old journal weighs 0.35 * exp(-1/30): 0.9 * 0.34 ranks it below the plain entries.
    expect(slugs(fuseMemoryHits({ ...input, types: ["reference", "daily"], includeArchived: true }))).toEqual([
      "global/old",
      "global/kept",
      "global/daily-2026-06-29",
    ]);
  });

  it("drops a global entry when the current project's entry of the same slug is a hit of either list", () => {
    const globalPet = record({ slug: "pet" });
    const projectPet = record({ slug: "pet", scope: "project", workdirHash: PROJECT });
    const otherProjectFood = record({ slug: "food", scope: "project", workdirHash: "ffffffffffffffff" });
    const globalFood = record({ slug: "food" });
    const hits = fuseMemoryHits({ ...base, lexical: lexical(globalPet, globalFood), vector: vector([projectPet, 0.7], [otherProjectFood, 0.6]) });
    // global/food: lexical 2nd (2/3); project/pet: vector 1st (0.25); another project's food (it shadows nothing): vector 2nd (0.17).
    expect(slugs(hits)).toEqual(["global/food", "project/pet", "project/food"]);
  });

  it("places a superseded entry just below its replacement, whichever list ranked it higher", () => {
    const older = record({ slug: "lunch-old" });
    const newer = record({ slug: "lunch", links: { supersedes: "lunch-old" } });
    const other = record({ slug: "other" });
    const hits = fuseMemoryHits({ ...base, lexical: lexical(older, other), vector: vector([older, 0.9], [other, 0.5], [newer, 0.4]) });
    expect(slugs(hits)).toEqual(["global/other", "global/lunch", "global/lunch-old"]);
    expect(hits[2]!.score).toBeLessThan(hits[1]!.score);
  });

  it("orders vector hits by similarity times the record's weight (daily journals decay)", () => {
    const staleDaily = record({ slug: "daily-2026-01-01", type: "daily", dateLocal: "2026-01-01", updatedAt: NOW - 180 * DAY });
    const user = record({ slug: "likes", type: "user" });
    const hits = fuseMemoryHits({ ...base, lexical: [], vector: vector([staleDaily, 0.95], [user, 0.6]) });
    expect(slugs(hits)).toEqual(["global/likes", "global/daily-2026-01-01"]);
    const unweighted = fuseMemoryHits({
      ...base,
      lexical: [],
      vector: vector([staleDaily, 0.95], [user, 0.6]),
      settings: { ...MEMORY_HYBRID_FUSION, rankWeighted: false },
    });
    expect(slugs(unweighted)).toEqual(["global/daily-2026-01-01", "global/likes"]);
  });

  it("fuses scaled scores with the score method and cuts at the limit", () => {
    const [a, b, c] = ["a", "b", "c"].map((slug) => record({ slug }));
    const settings: MemoryHybridFusionSettings = { ...MEMORY_HYBRID_FUSION, method: "score", lexicalWeight: 1, vectorWeight: 2 };
    const hits = fuseMemoryHits({ ...base, limit: 2, lexical: lexical(a!, b!), vector: vector([c!, 0.8], [b!, 0.4]), settings });
    // a: 10/10 = 1; b: 9/10 + 2 * 0.4/0.8 = 1.9; c: 2 * 1 = 2.
    expect(slugs(hits)).toEqual(["global/c", "global/b"]);
    expect(hits[1]!.score).toBeCloseTo(1.9, 10);
  });
});
