import { describe, expect, it } from "vitest";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";
import type { MemoryRecord } from "./memory-types.js";
import {
  bm25Score,
  MEMORY_EXPANSION_WEIGHT,
  MEMORY_INFLECTION_WEIGHT,
  MEMORY_RANK_WEIGHTS,
  MEMORY_STOP_WORD_WEIGHT,
  memoryRankWeight,
  mergeInflectedHits,
  rankMemoryHits,
  shouldQueryTrigram,
} from "./search-ranking.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 30, 12);

function record(overrides: Partial<MemoryRecord> & Pick<MemoryRecord, "slug">): MemoryRecord {
  return memoryRecord({ type: "reference", body: "", bodyHash: "h", fileMtimeMs: 0, fileSize: 0, createdAt: 0, updatedAt: NOW - DAY, ...overrides });
}

describe("bm25Score", () => {
  it("negates the usual negative bm25 and maps a positive one into (0, 1)", () => {
    expect(bm25Score(-3)).toBe(3);
    expect(bm25Score(1)).toBe(0.5);
    expect(bm25Score(0)).toBe(0);
    expect(Object.is(bm25Score(-0), 0)).toBe(true);
  });
});

describe("memoryRankWeight", () => {
  it("weighs project scope, then user, feedback, reference and global project entries", () => {
    expect(MEMORY_RANK_WEIGHTS).toMatchObject({ projectScope: 1.4, user: 1.3, feedback: 1.25, reference: 1.0, project: 1.0, daily: 0.35 });
    expect(memoryRankWeight(record({ slug: "a", scope: "project", workdirHash: "p", type: "user" }), NOW)).toBe(1.4);
    expect(memoryRankWeight(record({ slug: "a", type: "user" }), NOW)).toBe(1.3);
    expect(memoryRankWeight(record({ slug: "a", type: "feedback" }), NOW)).toBe(1.25);
    expect(memoryRankWeight(record({ slug: "a", type: "reference" }), NOW)).toBe(1.0);
    expect(memoryRankWeight(record({ slug: "a", type: "project" }), NOW)).toBe(1.0);
  });

  it("decays daily journals by exp(-ageDays/30)", () => {
    const daily = (updatedAt: number) => memoryRankWeight(record({ slug: "daily-2026-06-01", type: "daily", dateLocal: "2026-06-01", updatedAt }), NOW);
    expect(daily(NOW)).toBeCloseTo(0.35);
    expect(daily(NOW - 30 * DAY)).toBeCloseTo(0.35 * Math.exp(-1));
    expect(daily(NOW - 90 * DAY)).toBeCloseTo(0.35 * Math.exp(-3));
    expect(daily(NOW + DAY)).toBeCloseTo(0.35);
  });

  it("takes a daily journal's age from its date when there is no update time", () => {
    const weight = memoryRankWeight(record({ slug: "daily-2026-05-31", type: "daily", dateLocal: "2026-05-31", updatedAt: 0 }), Date.UTC(2026, 5, 30));
    expect(weight).toBeCloseTo(0.35 * Math.exp(-1));
  });
});

describe("rankMemoryHits", () => {
  it("scores -bm25 times the weight and sorts by score", () => {
    const ranked = rankMemoryHits({
      wordHits: [
        { record: record({ slug: "ref" }), bm25: -2 },
        { record: record({ slug: "usr", type: "user" }), bm25: -2 },
        { record: record({ slug: "prj", scope: "project", workdirHash: "p" }), bm25: -2 },
        { record: record({ slug: "daily-2026-06-29", type: "daily", dateLocal: "2026-06-29" }), bm25: -5 },
      ],
      trigramHits: [],
      now: NOW,
      limit: 8,
    });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["prj", "usr", "ref", "daily-2026-06-29"]);
    expect(ranked[0].score).toBeCloseTo(2.8);
    expect(ranked[3].score).toBeCloseTo(5 * 0.35 * Math.exp(-1 / 30));
    expect(ranked.every((hit) => hit.matchedBy === "words")).toBe(true);
  });

  it("deduplicates by key, keeping the best score and the index that found it", () => {
    const entry = record({ slug: "dark-mode", type: "user" });
    const ranked = rankMemoryHits({
      wordHits: [{ record: entry, bm25: -1 }],
      trigramHits: [{ record: entry, bm25: -4 }],
      scanHits: [{ record: entry, bm25: 0.5 }],
      now: NOW,
      limit: 8,
    });
    expect(ranked).toHaveLength(1);
    expect(ranked[0]).toMatchObject({ matchedBy: "trigram" });
    expect(ranked[0].score).toBeCloseTo(4 * 1.3);
  });

  it("lets a project entry shadow a global entry with the same slug, even a better one", () => {
    const ranked = rankMemoryHits({
      wordHits: [
        { record: record({ slug: "style", type: "user" }), bm25: -10 },
        { record: record({ slug: "other" }), bm25: -1 },
      ],
      trigramHits: [{ record: record({ slug: "style", scope: "project", workdirHash: "cur" }), bm25: -1 }],
      now: NOW,
      currentWorkdirHash: "cur",
      limit: 8,
    });
    expect(ranked.map((hit) => [hit.record.scope, hit.record.slug])).toEqual([
      ["project", "style"],
      ["global", "other"],
    ]);
  });

  it("only lets the current project shadow when the workdir is known", () => {
    const ranked = rankMemoryHits({
      wordHits: [
        { record: record({ slug: "style" }), bm25: -1 },
        { record: record({ slug: "style", scope: "project", workdirHash: "elsewhere" }), bm25: -1 },
      ],
      trigramHits: [],
      now: NOW,
      currentWorkdirHash: "cur",
      limit: 8,
    });
    expect(ranked).toHaveLength(2);
  });

  it("breaks score ties by updatedAt descending, then slug, and cuts to the limit", () => {
    const hits = [
      { record: record({ slug: "b-old", updatedAt: 1 }), bm25: -1 },
      { record: record({ slug: "c-new", updatedAt: 3 }), bm25: -1 },
      { record: record({ slug: "a-old", updatedAt: 1 }), bm25: -1 },
    ];
    const ranked = rankMemoryHits({ wordHits: hits, trigramHits: [], now: NOW, limit: 2 });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["c-new", "a-old"]);
    expect(rankMemoryHits({ wordHits: hits, trigramHits: [], now: NOW, limit: 0 })).toEqual([]);
  });
});

describe("shouldQueryTrigram", () => {
  it("asks the trigram index for CJK queries or when fewer than 8 word hits came back", () => {
    expect(shouldQueryTrigram(true, 32)).toBe(true);
    expect(shouldQueryTrigram(false, 7)).toBe(true);
    expect(shouldQueryTrigram(false, 8)).toBe(false);
  });
});

describe("mergeInflectedHits", () => {
  it("adds the inflection weight's share of what the inflections add to a word hit, and of an inflection-only hit's score", () => {
    const both = record({ slug: "both" });
    const onlyWords = record({ slug: "only-words" });
    const onlyInflected = record({ slug: "only-inflected" });
    const merged = mergeInflectedHits(
      [
        { record: both, bm25: -2 },
        { record: onlyWords, bm25: -3 },
      ],
      [
        { record: both, bm25: -4 },
        { record: onlyInflected, bm25: -5 },
      ],
    );
    const scores = Object.fromEntries(merged.map((hit) => [hit.record.slug, hit.bm25]));
    expect(scores.both).toBeCloseTo(-(2 + MEMORY_INFLECTION_WEIGHT * 2));
    expect(scores["only-words"]).toBe(-3);
    expect(scores["only-inflected"]).toBeCloseTo(-MEMORY_INFLECTION_WEIGHT * 5);
  });

  it("never lets the inflected query lower a word hit's score", () => {
    const hit = record({ slug: "a" });
    expect(mergeInflectedHits([{ record: hit, bm25: -3 }], [{ record: hit, bm25: -1 }])).toEqual([{ record: hit, bm25: -3 }]);
  });
});

describe("rankMemoryHits: tiers, expansions and supersedes", () => {
  const base = { now: NOW, limit: 10, trigramHits: [] };

  it("counts what the inflections add at the inflection weight, and ranks inflection-only hits with trigram hits when asked", () => {
    const exact = record({ slug: "hobby-exact" });
    const inflected = record({ slug: "hobby-inflected" });
    const substring = record({ slug: "substring" });
    const input = {
      ...base,
      wordHits: [{ record: exact, bm25: -1 }],
      inflectedHits: [
        { record: exact, bm25: -1 },
        { record: inflected, bm25: -4 },
      ],
      trigramHits: [{ record: substring, bm25: -3 }],
      trigramBelowWords: true,
    };
    const ranked = rankMemoryHits(input);
    expect(ranked.map((hit) => [hit.record.slug, hit.score])).toEqual([
      ["hobby-inflected", 4 * MEMORY_INFLECTION_WEIGHT],
      ["hobby-exact", 1],
      ["substring", 3],
    ]);
    const below = rankMemoryHits({ ...input, inflectionsBelowWords: true });
    expect(below.map((hit) => hit.record.slug)).toEqual(["hobby-exact", "substring", "hobby-inflected"]);
  });

  it("ranks trigram-only hits of a query without CJK after every word hit, whatever their score", () => {
    const word = record({ slug: "go-rewrite" });
    const substring = record({ slug: "lint-setup" });
    const ranked = rankMemoryHits({ ...base, wordHits: [{ record: word, bm25: -1 }], trigramHits: [{ record: substring, bm25: -9 }], trigramBelowWords: true });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["go-rewrite", "lint-setup"]);
    const cjk = rankMemoryHits({ ...base, wordHits: [{ record: word, bm25: -1 }], trigramHits: [{ record: substring, bm25: -9 }], trigramBelowWords: false });
    expect(cjk.map((hit) => hit.record.slug)).toEqual(["lint-setup", "go-rewrite"]);
  });

  it("weighs expansion hits lower than the query's own words", () => {
    const own = record({ slug: "indentation" });
    const expanded = record({ slug: "theme-preference" });
    const ranked = rankMemoryHits({ ...base, wordHits: [{ record: own, bm25: -3 }], expansionHits: [{ record: expanded, bm25: -5 }], trigramHits: [] });
    expect(ranked.map((hit) => [hit.record.slug, hit.score])).toEqual([
      ["indentation", 3],
      ["theme-preference", 5 * MEMORY_EXPANSION_WEIGHT],
    ]);
    expect(ranked[1]!.matchedBy).toBe("words");
  });

  it("ranks stop-word hits after trigram hits and scan hits last", () => {
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [],
      trigramHits: [{ record: record({ slug: "tri" }), bm25: -0.1 }],
      stopWordHits: [{ record: record({ slug: "stop" }), bm25: -8 }],
      scanHits: [{ record: record({ slug: "scan" }), bm25: -9 }],
      trigramBelowWords: true,
    });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["tri", "stop", "scan"]);
  });

  it("breaks a tie between two word hits by what the stop words add to each, weighted low", () => {
    const plain = record({ slug: "plain" });
    const tipped = record({ slug: "tipped", updatedAt: NOW - 2 * DAY });
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [
        { record: plain, bm25: -4 },
        { record: tipped, bm25: -4 },
      ],
      // The words with the stop words: "tipped" also holds a stop word, "plain" none.
      stopWordHits: [
        { record: tipped, bm25: -4.6 },
        { record: plain, bm25: -4 },
      ],
    });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["tipped", "plain"]);
    expect(ranked[0]!.score).toBeCloseTo(4 + 0.6 * MEMORY_STOP_WORD_WEIGHT);
    expect(ranked[1]!.score).toBeCloseTo(4);
  });

  it("does not let the stop words outweigh a clearly better word hit, and never lowers a score", () => {
    const better = record({ slug: "better" });
    const chatty = record({ slug: "chatty" });
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [
        { record: better, bm25: -5 },
        { record: chatty, bm25: -4 },
      ],
      stopWordHits: [
        { record: chatty, bm25: -6 },
        // A store's rounding may give a combined score a hair below the words alone.
        { record: better, bm25: -4.99 },
      ],
    });
    expect(ranked.map((hit) => [hit.record.slug, hit.score])).toEqual([
      ["better", 5],
      ["chatty", 4 + 2 * MEMORY_STOP_WORD_WEIGHT],
    ]);
  });

  it("weighs the stop-word share like its hit (scope, type, expansion)", () => {
    const user = record({ slug: "usr", type: "user" });
    const expanded = record({ slug: "exp" });
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [{ record: user, bm25: -2 }],
      expansionHits: [{ record: expanded, bm25: -4 }],
      stopWordHits: [
        { record: user, bm25: -3 },
        { record: expanded, bm25: -1 },
      ],
    });
    expect(ranked.map((hit) => [hit.record.slug, hit.score])).toEqual([
      ["usr", expect.closeTo((2 + MEMORY_STOP_WORD_WEIGHT) * 1.3)],
      ["exp", expect.closeTo(4 * MEMORY_EXPANSION_WEIGHT + MEMORY_STOP_WORD_WEIGHT)],
    ]);
  });

  it("puts an entry another hit supersedes just below it, along a chain", () => {
    const oldest = record({ slug: "standup-time", updatedAt: NOW - 3 * DAY });
    const older = record({ slug: "standup-time-moved", links: { supersedes: "standup-time" }, updatedAt: NOW - 2 * DAY });
    const newest = record({ slug: "standup-time-changed", links: { supersedes: "standup-time-moved" } });
    const other = record({ slug: "retro" });
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [
        { record: oldest, bm25: -9 },
        { record: older, bm25: -8 },
        { record: other, bm25: -3 },
        { record: newest, bm25: -2 },
      ],
      trigramHits: [],
    });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["retro", "standup-time-changed", "standup-time-moved", "standup-time"]);
  });

  it("leaves an entry whose replacement is not among the hits where it is", () => {
    const ranked = rankMemoryHits({
      ...base,
      wordHits: [
        { record: record({ slug: "a", links: { supersedes: "gone" } }), bm25: -1 },
        { record: record({ slug: "b" }), bm25: -2 },
      ],
      trigramHits: [],
    });
    expect(ranked.map((hit) => hit.record.slug)).toEqual(["b", "a"]);
  });
});
