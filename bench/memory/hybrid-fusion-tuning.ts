/**
 * Tunes the hybrid fusion (packages/memory/src/domain/hybrid-fusion.ts) on
 * the real corpus's tuning sets (REALTALK, FriendsQA dev; the FriendsQA test
 * set stays held out): every question's lexical candidates (the SDK's
 * lexical search, 32 ranked hits) and vector candidates (the offline
 * embedder, 32 nearest) are computed once, then fused under every setting of
 * a grid. Prints recall@1/5/10 and MRR overall and per question kind for
 * lexical alone, vector alone and each setting, best recall@5 first.
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/memory/hybrid-fusion-tuning.ts [--top=15] [--data=<dir>]
 */
import { type FusedMemoryHit, MEMORY_HYBRID_FUSION, type MemoryHybridFusionSettings, fuseMemoryHits } from "../../packages/memory/src/domain/hybrid-fusion.js";
import { unitVector } from "../../packages/memory/src/runtime/memory-embedding-text.js";
import { createWordVectorEmbedder } from "../../packages/word-vectors/src/index.js";
import { loadCorpusStore } from "./real-corpus/corpus-store.js";
import type { RealCorpusQuestion } from "./real-corpus/corpus-types.js";
import { loadRealCorpus, sourcesUnder } from "./real-corpus/load-corpus.js";
import { putCorpusVectors } from "./real-corpus/rankings.js";
import { RESULT_LIMIT, firstEvidenceRank } from "./real-corpus/retrieval-metrics.js";

const CANDIDATES = 32;
const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, "").split("=") as [string, string]));

interface Candidates {
  readonly question: RealCorpusQuestion;
  readonly workdirHash: string;
  readonly lexical: Parameters<typeof fuseMemoryHits>[0]["lexical"];
  readonly vector: Parameters<typeof fuseMemoryHits>[0]["vector"];
  readonly keyOf: (record: { workdirHash: string; slug: string }) => string;
}

interface Scores {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
}

function scoresOf(ranks: readonly (number | null)[]): Scores {
  const within = (k: number) => ranks.filter((rank) => rank !== null && rank <= k).length / ranks.length;
  return {
    recallAt1: within(1),
    recallAt5: within(5),
    recallAt10: within(10),
    mrr: ranks.reduce<number>((sum, rank) => sum + (rank === null ? 0 : 1 / rank), 0) / ranks.length,
  };
}

async function candidates(): Promise<Candidates[]> {
  const embedder = await createWordVectorEmbedder();
  const sources = args.has("data") ? sourcesUnder(args.get("data")!) : {};
  const all: Candidates[] = [];
  for (const dataset of loadRealCorpus(["realtalk", "friendsqa-dev"], sources)) {
    const loaded = await loadCorpusStore("memory", [dataset]);
    if (typeof loaded === "string") throw new Error(loaded);
    try {
      const note = await putCorpusVectors(loaded, [dataset], embedder);
      if (note !== undefined) throw new Error(note);
      const services = await loaded.openServices();
      const vectors = await embedder.embed(dataset.questions.map((question) => question.text));
      for (const [index, question] of dataset.questions.entries()) {
        const workdirHash = loaded.hashes.get(question.project)!;
        const lexical = await services.get(question.project)!.search({ query: question.text, limit: CANDIDATES });
        const unit = unitVector(vectors[index]!);
        const vector =
          unit === undefined
            ? []
            : await loaded.store.searchVectors({
                scopes: [
                  { scope: "global", workdirHash: "" },
                  { scope: "project", workdirHash },
                ],
                types: ["user", "feedback", "project", "reference"],
                includeArchived: false,
                modelId: embedder.modelId,
                vector: unit,
                limit: CANDIDATES,
              });
        all.push({ question, workdirHash, lexical: lexical.hits as Candidates["lexical"], vector, keyOf: (record) => loaded.keyOf(record) });
      }
      for (const service of services.values()) await service.close();
    } finally {
      await loaded.close();
    }
  }
  return all;
}

function evaluate(all: readonly Candidates[], rank: (candidate: Candidates) => readonly FusedMemoryHit[]): Map<string, Scores> {
  const groups = new Map<string, (number | null)[]>();
  for (const candidate of all) {
    const top = rank(candidate)
      .slice(0, RESULT_LIMIT)
      .map((hit) => candidate.keyOf(hit.record));
    const found = firstEvidenceRank(top, candidate.question.evidence);
    for (const group of ["all", candidate.question.kind, candidate.question.dataset]) groups.set(group, [...(groups.get(group) ?? []), found]);
  }
  return new Map([...groups].map(([group, ranks]) => [group, scoresOf(ranks)]));
}

function grid(): { name: string; settings: MemoryHybridFusionSettings; vectorCandidates: number }[] {
  const settings: { name: string; settings: MemoryHybridFusionSettings; vectorCandidates: number }[] = [];
  if (args.get("grid") === "fine") {
    for (const vectorCandidates of [5, 10, 20]) {
      for (const k of [1, 2, 5, 10, 20, 60]) {
        for (const vectorWeight of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3]) {
          for (const rankWeighted of [true]) {
            settings.push({
              name: `rrf k=${k} w=${vectorWeight} K=${vectorCandidates}${rankWeighted ? "" : " unweighted"}`,
              settings: { ...MEMORY_HYBRID_FUSION, method: "rrf", k, vectorWeight, similarityFloor: -1, rankWeighted },
              vectorCandidates,
            });
          }
        }
      }
    }
    return settings;
  }
  for (const vectorCandidates of [10, 32]) {
    for (const floor of [-1, 0, 0.3, 0.5, 0.6, 0.7, 0.8]) {
      for (const k of [5, 20, 60]) {
        for (const vectorWeight of [0.1, 0.25, 0.5, 0.75, 1]) {
          settings.push({
            name: `rrf k=${k} w=${vectorWeight} floor=${floor} K=${vectorCandidates}`,
            settings: { ...MEMORY_HYBRID_FUSION, method: "rrf", k, vectorWeight, similarityFloor: floor },
            vectorCandidates,
          });
        }
      }
      for (const vectorWeight of [0.1, 0.25, 0.5, 1]) {
        settings.push({
          name: `score w=${vectorWeight} floor=${floor} K=${vectorCandidates}`,
          settings: { ...MEMORY_HYBRID_FUSION, method: "score", vectorWeight, similarityFloor: floor },
          vectorCandidates,
        });
      }
    }
  }
  return settings;
}

const format = (scores: Scores | undefined) =>
  scores === undefined
    ? "-"
    : `${(100 * scores.recallAt1).toFixed(1)}/${(100 * scores.recallAt5).toFixed(1)}/${(100 * scores.recallAt10).toFixed(1)} mrr ${scores.mrr.toFixed(3)}`;

const all = await candidates();
const kinds = [...new Set(all.map((candidate) => candidate.question.kind))].sort();
const groups = ["all", ...kinds, "realtalk", "friendsqa-dev"];
const print = (name: string, scores: Map<string, Scores>) =>
  console.log(`${name.padEnd(40)} ${groups.map((group) => `${group}: ${format(scores.get(group))}`).join(" | ")}`);
const fuse = (candidate: Candidates, settings: MemoryHybridFusionSettings, vectorCandidates: number, lexical = candidate.lexical) =>
  fuseMemoryHits({
    lexical,
    vector: candidate.vector.slice(0, vectorCandidates),
    includeArchived: false,
    now: Date.now(),
    currentWorkdirHash: candidate.workdirHash,
    limit: RESULT_LIMIT,
    settings,
  });
console.log(`${all.length} questions; recall@1/5/10 (%) and MRR`);
const lexical = evaluate(all, (candidate) => candidate.lexical);
print("lexical", lexical);
print(
  "vector",
  evaluate(all, (candidate) => fuse(candidate, MEMORY_HYBRID_FUSION, CANDIDATES, [])),
);
const results = grid().map((entry) => ({ ...entry, scores: evaluate(all, (candidate) => fuse(candidate, entry.settings, entry.vectorCandidates)) }));
results.sort(
  (left, right) => right.scores.get("all")!.recallAt5 - left.scores.get("all")!.recallAt5 || right.scores.get("all")!.mrr - left.scores.get("all")!.mrr,
);
for (const result of results.slice(0, Number(args.get("top") ?? 15))) print(result.name, result.scores);
const byMrr = [...results].sort((left, right) => right.scores.get("all")!.mrr - left.scores.get("all")!.mrr);
for (const result of byMrr.slice(0, 5)) print(`(by MRR) ${result.name}`, result.scores);
const plainRrf = results.find((result) => result.name === "rrf k=60 w=1 floor=0 K=32");
if (plainRrf !== undefined) print(`(plain RRF) ${plainRrf.name}`, plainRrf.scores);
