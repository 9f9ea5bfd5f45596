/**
 * Retrieval quality of memory search: recall@1, @5, @10 and MRR per question
 * kind and per dataset, for plain BM25 (computed in the bench), the SDK's
 * lexical search (MemoryService.search, the default), the vector index alone
 * and the SDK's hybrid search, the last two with the offline embedder
 * (`@agent-tools/word-vectors`).
 *
 * `--corpus=real` (default): the real corpus of bench/memory/real-corpus
 * (REALTALK chats and FriendsQA scenes; see its README for the data, which is
 * never committed). The tuning sets (REALTALK + FriendsQA dev) and the
 * held-out FriendsQA test set (never tuned on) are reported separately.
 * `--corpus=written`: the generated corpus of facts written for the SDK
 * (written-corpus-quality.ts). `--corpus=all`: both.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/memory/retrieval-quality.ts
 *   [--corpus=real|written|all] [--backend=memory,sqlite,postgres] [--data=<dir with REALTALK/ and FriendsQA/ clones>]
 *   [--rankings=plain-bm25,lexical,vector,hybrid] [--json=<file>] [--markdown=<file>] [--seed=42] [--distractors=360] (the last two: written corpus)
 * Default backends: memory and sqlite. Takes about a minute per backend.
 */
import fs from "node:fs/promises";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { machineLine } from "./bench-util.js";
import { RETRIEVAL_BACKENDS, type RetrievalBackend } from "./real-corpus/corpus-store.js";
import type { RealDataset } from "./real-corpus/corpus-types.js";
import { type RetrievalReport, evaluateRankings } from "./real-corpus/evaluate.js";
import { describeRealCorpus, loadRealCorpus, sourcesUnder } from "./real-corpus/load-corpus.js";
import { RETRIEVAL_RANKINGS, type RetrievalRanking } from "./real-corpus/rankings.js";
import { backendAgreement, markdownTable, printReports, verdictLines } from "./real-corpus/report-table.js";
import { runWrittenCorpusQuality } from "./written-corpus-quality.js";

const OPTIONS = ["corpus", "backend", "data", "rankings", "json", "markdown", "seed", "distractors"] as const;
const CORPORA = ["real", "written", "all"] as const;

function option(name: (typeof OPTIONS)[number], fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/** Every argument is a known `--name=value`; the listed values are known ones. Exits with a message otherwise. */
function checkArguments(): void {
  for (const argument of process.argv.slice(2)) {
    const name = /^--([a-z-]+)=/.exec(argument)?.[1];
    if (name === undefined || !(OPTIONS as readonly string[]).includes(name)) {
      throw new Error(`unknown argument ${JSON.stringify(argument)}; the options are ${OPTIONS.map((known) => `--${known}=`).join(", ")}`);
    }
  }
  const lists: [string, readonly string[], readonly string[]][] = [
    ["corpus", [option("corpus", "real")], CORPORA],
    ["backend", option("backend", "memory,sqlite").split(","), RETRIEVAL_BACKENDS],
    ["rankings", option("rankings", RETRIEVAL_RANKINGS.join(",")).split(","), RETRIEVAL_RANKINGS],
  ];
  for (const [name, values, known] of lists) {
    const wrong = values.filter((value) => !known.includes(value));
    if (wrong.length > 0) throw new Error(`--${name}: unknown ${wrong.map((value) => JSON.stringify(value)).join(", ")}; one of ${known.join(", ")}`);
  }
}

/** The offline embedder, or why it is not available. */
async function offlineEmbedder(): Promise<EmbeddingClient | string> {
  try {
    const { createWordVectorEmbedder } = await import("@agent-tools/word-vectors");
    return await createWordVectorEmbedder();
  } catch (error) {
    return `the offline embedder did not load: ${(error as Error).message}`;
  }
}

async function runRealCorpus(backends: readonly RetrievalBackend[], rankings: readonly RetrievalRanking[]): Promise<void> {
  const jsonFile = option("json", "");
  const markdownFile = option("markdown", "");
  const dataDir = option("data", "");
  const datasets = loadRealCorpus(undefined, dataDir === "" ? {} : sourcesUnder(dataDir));
  console.log("real corpus (bench/memory/real-corpus):");
  for (const line of describeRealCorpus(datasets)) console.log(`  ${line}`);
  let embedder: EmbeddingClient | undefined;
  if (rankings.includes("vector") || rankings.includes("hybrid")) {
    const started = performance.now();
    const loaded = await offlineEmbedder();
    if (typeof loaded === "string") console.log(`  vector and hybrid: n/a (${loaded})`);
    else {
      embedder = loaded;
      console.log(`  embedder: ${loaded.modelId} (dimension ${loaded.dimension}), loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
  const sets: [string, RealDataset[]][] = [
    ["tuning sets (REALTALK + FriendsQA dev)", datasets.filter((dataset) => dataset.name !== "friendsqa-test")],
    ["held-out FriendsQA test set (never tuned on)", datasets.filter((dataset) => dataset.name === "friendsqa-test")],
  ];
  const all: { set: string; reports: RetrievalReport[] }[] = [];
  for (const backend of backends) {
    for (const [set, members] of sets) {
      const started = performance.now();
      const reports = await evaluateRankings({ datasets: members, backend, rankings, ...(embedder === undefined ? {} : { embedder }) });
      console.log(`\n${set}, backend ${backend} (${((performance.now() - started) / 1000).toFixed(0)} s with loading):`);
      printReports(reports);
      for (const line of verdictLines(reports)) console.log(line);
      all.push({ set, reports });
    }
  }
  if (backends.length > 1) {
    console.log("");
    for (const line of backendAgreement(all)) console.log(line);
  }
  if (markdownFile !== "") {
    const sections = all.flatMap((run) => [
      `${run.set}, ${run.reports[0]?.backend} (recall@1 / @5 / @10 / MRR):\n\n${markdownTable(run.reports)}`,
      `compact:\n\n${markdownTable(run.reports, false)}`,
    ]);
    await fs.writeFile(markdownFile, `${machineLine()}, ${new Date().toISOString()}\n\n${sections.join("\n\n")}\n`);
    console.log(`\nMarkdown tables written to ${markdownFile}`);
  }
  if (jsonFile !== "") {
    await fs.writeFile(jsonFile, `${JSON.stringify({ machine: machineLine(), date: new Date().toISOString(), runs: all }, null, 1)}\n`);
    console.log(`\nper-question results written to ${jsonFile}`);
  }
}

async function main(): Promise<void> {
  checkArguments();
  const corpus = option("corpus", "real") as (typeof CORPORA)[number];
  const backends = option("backend", "memory,sqlite").split(",") as RetrievalBackend[];
  const rankings = option("rankings", RETRIEVAL_RANKINGS.join(",")).split(",") as RetrievalRanking[];
  console.log(`${machineLine()}, ${new Date().toISOString()}`);
  if (corpus === "real" || corpus === "all") await runRealCorpus(backends, rankings);
  if (corpus === "written" || corpus === "all") {
    console.log("\nwritten corpus (conversation-corpus.ts):");
    await runWrittenCorpusQuality({ seed: Number(option("seed", "42")), distractors: Number(option("distractors", "360")), backends });
  }
}

await main();
