import fs from "node:fs/promises";
import { FunctionEmbeddingClient } from "@agent-tools/memory/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateRankings, evaluateRetrieval } from "../../bench/memory/real-corpus/evaluate.js";
import { loadRealCorpus, sourcesUnder } from "../../bench/memory/real-corpus/load-corpus.js";
import { compareRuns } from "../../bench/memory/real-corpus/compare-reports.js";
import { metricsOf } from "../../bench/memory/real-corpus/retrieval-metrics.js";
import { writeFixtureClones } from "./real-corpus-fixture.js";

let dir: string;
beforeAll(async () => {
  dir = await writeFixtureClones();
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** One axis per concept: a text is near another when they share one. */
const AXES = [/puppy|beagle|biscuit/i, /violin|chew/i, /bakery|job|bread/i, /monkey|marcel/i, /lights/i, /coffee|work/i];
const embedder = new FunctionEmbeddingClient({
  dimension: AXES.length,
  maxBatchSize: 64,
  vectorOf: (text) => AXES.map((axis) => (axis.test(text) ? 1 : 0.01)),
});

describe("evaluateRetrieval on the fixture corpus", () => {
  it("ranks every question in its own project and reports metrics that follow from the per-question ranks", async () => {
    const datasets = loadRealCorpus(["realtalk", "friendsqa-dev"], sourcesUnder(dir));
    const reports = await evaluateRankings({ datasets, rankings: ["plain-bm25", "lexical", "vector", "hybrid"], embedder });
    expect(reports.map((report) => [report.ranking, report.available])).toEqual([
      ["plain-bm25", true],
      ["lexical", true],
      ["vector", true],
      ["hybrid", true],
    ]);
    for (const report of reports) {
      expect(report.questions).toHaveLength(9);
      expect(report.overall).toEqual(metricsOf(report.questions));
      expect(report.byDataset.realtalk?.questions).toBe(5);
      expect(report.byDataset["friendsqa-dev"]?.questions).toBe(4);
      expect(report.byKind.temporal?.questions).toBe(2);
      // Every hit comes from the question's own project.
      for (const question of report.questions) {
        const project = question.evidence[0]!.split("/")[0]!;
        expect(question.top.every((key) => key.startsWith(`${project}/`))).toBe(true);
      }
    }
    const rankOf = (ranking: string, id: string) =>
      reports.find((report) => report.ranking === ranking)!.questions.find((question) => question.id === id)!.rank;
    // Plain BM25 scores the question's stop words like any word; the SDK does not let them decide.
    expect(rankOf("plain-bm25", "s01_e02_c01_What")).not.toBeNull();
    expect(rankOf("lexical", "s01_e02_c01_What")).toBe(1);
    // "chew" is not a word of "Biscuit chewed my violin case", but the embedder puts them on one axis.
    expect(rankOf("vector", "realtalk-chat-1#2")).toBe(1);
    expect(reports.find((report) => report.ranking === "vector")!.questions[1]!.top[0]).toBe("realtalk-chat-1/msg-00004");
    // Rachel's question is alone in season 2: every ranking that finds anything finds it first.
    expect(rankOf("vector", "s02_e01_c01_Where")).toBe(1);
  });

  it("says why a ranking cannot run instead of reporting figures", async () => {
    const report = await evaluateRetrieval({ datasets: loadRealCorpus(["friendsqa-test"], sourcesUnder(dir)), ranking: "hybrid" });
    expect(report).toMatchObject({ ranking: "hybrid", backend: "memory", available: false, note: "no embedder given", questions: [] });
  });
});

describe("compareRuns", () => {
  it("lists the questions a second run ranks better and worse, a miss counting below rank 10", () => {
    const question = (id: string, rank: number | null) => ({
      id,
      dataset: "realtalk" as const,
      kind: "single" as const,
      text: id,
      evidence: ["p/a"],
      rank,
      top: [],
    });
    const comparison = compareRuns(
      [question("a", 1), question("b", null), question("c", 3), question("d", 2), question("gone", 1)],
      [question("a", 1), question("b", 4), question("c", null), question("d", 1), question("new", 1)],
    );
    expect(comparison.improved.map((change) => [change.id, change.before, change.after])).toEqual([
      ["b", null, 4],
      ["d", 2, 1],
    ]);
    expect(comparison.worsened.map((change) => [change.id, change.before, change.after])).toEqual([["c", 3, null]]);
    expect(comparison.unmatched).toBe(2);
  });
});
