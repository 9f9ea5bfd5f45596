/**
 * evaluateRetrieval: one ranking of the real corpus (REALTALK, FriendsQA) on
 * one backend, with recall@1/5/10 and MRR overall, per question kind, per
 * dataset, and every question's outcome (so a tuner can diff two runs).
 *
 * The entries go straight into the index store through `applyBatch` (no
 * files, no quota); each project's MemoryService opens with `skipReconcile`
 * and `now` = the conversation's end + 1 day, and every question is asked
 * with `service.search` (scope auto, limit 10) in its project. On the
 * in-memory store a run of all three datasets takes seconds.
 *
 * @example
 * const report = await evaluateRetrieval({ datasets: ["realtalk", "friendsqa-dev"], ranking: "lexical" });
 * console.log(report.overall.recallAt5, report.byKind.temporal?.mrr);
 */
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import { type LoadedCorpusStore, type RetrievalBackend, loadCorpusStore } from "./corpus-store.js";
import type { RealCorpusQuestion, RealDataset, RealDatasetName } from "./corpus-types.js";
import { type RealCorpusSources, loadRealCorpus } from "./load-corpus.js";
import { type RankedKeys, type RetrievalRanking, plainBm25Keys, putCorpusVectors, serviceKeys, vectorKeys } from "./rankings.js";
import { type QuestionRetrieval, type RetrievalBreakdown, breakdownOf, firstEvidenceRank } from "./retrieval-metrics.js";

export type { RetrievalBackend } from "./corpus-store.js";
export type { RetrievalRanking } from "./rankings.js";
export type { QuestionRetrieval, RetrievalMetrics } from "./retrieval-metrics.js";

/** What to evaluate. */
export interface EvaluateRetrievalOptions extends RealCorpusSources {
  /** Dataset names to load (default realtalk and friendsqa-dev: the tuning sets), or datasets loaded already. */
  readonly datasets?: readonly RealDatasetName[] | readonly RealDataset[];
  /** Index backend; default memory. */
  readonly backend?: RetrievalBackend;
  readonly ranking: RetrievalRanking;
  /** The embedder of the vector and hybrid rankings (required by them). */
  readonly embedder?: EmbeddingClient;
}

/** Several rankings over one loaded store. */
export interface EvaluateRankingsOptions extends Omit<EvaluateRetrievalOptions, "ranking"> {
  readonly rankings: readonly RetrievalRanking[];
}

/** The outcome of one ranking. */
export interface RetrievalReport extends RetrievalBreakdown {
  readonly ranking: RetrievalRanking;
  readonly backend: RetrievalBackend;
  /** False when the ranking could not run (no embedder, the store or service lacks the feature); `note` says why. */
  readonly available: boolean;
  readonly note?: string;
  readonly questions: readonly QuestionRetrieval[];
  /** Wall time of answering the questions (loading excluded), seconds. */
  readonly seconds: number;
}

/** The default datasets: the tuning sets (the FriendsQA test set is held out). */
export const TUNING_DATASETS: readonly RealDatasetName[] = ["realtalk", "friendsqa-dev"];

/** Evaluates one ranking; see the module comment. */
export async function evaluateRetrieval(options: EvaluateRetrievalOptions): Promise<RetrievalReport> {
  const { ranking, ...rest } = options;
  const [report] = await evaluateRankings({ ...rest, rankings: [ranking] });
  return report!;
}

function datasetsOf(options: EvaluateRankingsOptions): RealDataset[] {
  const given = options.datasets ?? TUNING_DATASETS;
  if (given.every((item) => typeof item === "string")) return loadRealCorpus(given as readonly string[], options);
  return [...(given as readonly RealDataset[])];
}

function resultsOf(questions: readonly RealCorpusQuestion[], keys: RankedKeys): QuestionRetrieval[] {
  return questions.map((question, index) => ({
    id: question.id,
    dataset: question.dataset,
    kind: question.kind,
    text: question.text,
    evidence: question.evidence,
    rank: firstEvidenceRank(keys[index]!, question.evidence),
    top: keys[index]!,
  }));
}

function unavailable(ranking: RetrievalRanking, backend: RetrievalBackend, note: string): RetrievalReport {
  return { ranking, backend, available: false, note, questions: [], seconds: 0, ...breakdownOf([]) };
}

/** Evaluates several rankings over one store (loaded once); reports in the order asked. */
export async function evaluateRankings(options: EvaluateRankingsOptions): Promise<RetrievalReport[]> {
  const backend = options.backend ?? "memory";
  const datasets = datasetsOf(options);
  const questions = datasets.flatMap((dataset) => dataset.questions);
  const needsStore = options.rankings.some((ranking) => ranking !== "plain-bm25");
  const loaded = needsStore ? await loadCorpusStore(backend, datasets) : undefined;
  const reports: RetrievalReport[] = [];
  let vectorsNote: string | undefined;
  let vectorsPut = false;
  try {
    for (const ranking of options.rankings) {
      if (typeof loaded === "string") {
        reports.push(unavailable(ranking, backend, loaded));
        continue;
      }
      const started = performance.now();
      let keys: RankedKeys;
      if (ranking === "plain-bm25") keys = plainBm25Keys(datasets, questions);
      else if (ranking === "lexical") keys = await withServices(loaded!, undefined, (services) => serviceKeys(loaded!, services, questions));
      else {
        const embedder = options.embedder;
        if (embedder === undefined) {
          reports.push(unavailable(ranking, backend, "no embedder given"));
          continue;
        }
        if (!vectorsPut) {
          vectorsNote = await putCorpusVectors(loaded!, datasets, embedder);
          vectorsPut = true;
        }
        if (vectorsNote !== undefined) {
          reports.push(unavailable(ranking, backend, vectorsNote));
          continue;
        }
        const vectorStarted = performance.now();
        if (ranking === "vector") keys = await vectorKeys(loaded!, questions, embedder);
        else {
          const outcome = await withServices(loaded!, embedder, async (services) => {
            const first = services.values().next().value as { embeddingsSettled?: () => Promise<void> } | undefined;
            if (typeof first?.embeddingsSettled !== "function") return "MemoryServiceOptions.embedder has not landed (no embeddingsSettled)";
            for (const service of services.values()) await (service as unknown as { embeddingsSettled(): Promise<void> }).embeddingsSettled();
            return serviceKeys(loaded!, services, questions);
          });
          if (typeof outcome === "string") {
            reports.push(unavailable(ranking, backend, outcome));
            continue;
          }
          keys = outcome;
        }
        reports.push(report(ranking, backend, questions, keys, vectorStarted));
        continue;
      }
      reports.push(report(ranking, backend, questions, keys, started));
    }
  } finally {
    if (typeof loaded === "object") await loaded.close();
  }
  return reports;
}

function report(
  ranking: RetrievalRanking,
  backend: RetrievalBackend,
  questions: readonly RealCorpusQuestion[],
  keys: RankedKeys,
  started: number,
): RetrievalReport {
  const results = resultsOf(questions, keys);
  return { ranking, backend, available: true, questions: results, seconds: (performance.now() - started) / 1000, ...breakdownOf(results) };
}

async function withServices<T>(
  loaded: LoadedCorpusStore,
  embedder: EmbeddingClient | undefined,
  run: (services: Map<string, import("@agent-tools/memory").MemoryService>) => Promise<T>,
): Promise<T> {
  const services = await loaded.openServices(embedder);
  try {
    return await run(services);
  } finally {
    for (const service of services.values()) await service.close();
  }
}
