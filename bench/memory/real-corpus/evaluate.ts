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

/** One ranking's answers on one dataset, or why it could not run. */
type DatasetOutcome = { readonly keys: RankedKeys; readonly seconds: number } | { readonly note: string };

/**
 * Evaluates several rankings; reports in the order asked. Each dataset gets a
 * store of its own (loaded once for all rankings), so the index statistics
 * (BM25's document frequencies) of one dataset never depend on which others
 * are evaluated with it.
 */
export async function evaluateRankings(options: EvaluateRankingsOptions): Promise<RetrievalReport[]> {
  const backend = options.backend ?? "memory";
  const datasets = datasetsOf(options);
  const outcomes = new Map<RetrievalRanking, DatasetOutcome[]>(options.rankings.map((ranking) => [ranking, []]));
  for (const dataset of datasets) {
    const answers = await rankDataset(dataset, backend, options.rankings, options.embedder);
    for (const ranking of options.rankings) outcomes.get(ranking)!.push(answers.get(ranking)!);
  }
  return options.rankings.map((ranking) => {
    const perDataset = outcomes.get(ranking)!;
    const failed = perDataset.find((outcome) => "note" in outcome);
    if (failed !== undefined && "note" in failed) return unavailable(ranking, backend, failed.note);
    const results = datasets.flatMap((dataset, index) => resultsOf(dataset.questions, (perDataset[index] as { keys: RankedKeys }).keys));
    const seconds = perDataset.reduce((sum, outcome) => sum + ("seconds" in outcome ? outcome.seconds : 0), 0);
    return { ranking, backend, available: true, questions: results, seconds, ...breakdownOf(results) };
  });
}

async function rankDataset(
  dataset: RealDataset,
  backend: RetrievalBackend,
  rankings: readonly RetrievalRanking[],
  embedder: EmbeddingClient | undefined,
): Promise<Map<RetrievalRanking, DatasetOutcome>> {
  const answers = new Map<RetrievalRanking, DatasetOutcome>();
  const questions = dataset.questions;
  const timed = async (run: () => Promise<RankedKeys> | RankedKeys): Promise<DatasetOutcome> => {
    const started = performance.now();
    const keys = await run();
    return { keys, seconds: (performance.now() - started) / 1000 };
  };
  const needsStore = rankings.some((ranking) => ranking !== "plain-bm25");
  const loaded = needsStore ? await loadCorpusStore(backend, [dataset]) : undefined;
  let vectorsNote: string | undefined;
  let vectorsPut = false;
  try {
    for (const ranking of rankings) {
      if (ranking === "plain-bm25") {
        answers.set(ranking, await timed(() => plainBm25Keys([dataset], questions)));
        continue;
      }
      if (typeof loaded !== "object") {
        answers.set(ranking, { note: loaded ?? "no store" });
        continue;
      }
      if (ranking === "lexical") {
        answers.set(ranking, await timed(() => withServices(loaded, undefined, (services) => serviceKeys(loaded, services, questions))));
        continue;
      }
      if (embedder === undefined) {
        answers.set(ranking, { note: "no embedder given" });
        continue;
      }
      if (!vectorsPut) {
        vectorsNote = await putCorpusVectors(loaded, [dataset], embedder);
        vectorsPut = true;
      }
      if (vectorsNote !== undefined) answers.set(ranking, { note: vectorsNote });
      else if (ranking === "vector") answers.set(ranking, await timed(() => vectorKeys(loaded, questions, embedder)));
      else answers.set(ranking, await hybridOutcome(loaded, questions, embedder));
    }
  } finally {
    if (typeof loaded === "object") await loaded.close();
  }
  return answers;
}

/** MemoryService.search with the embedder, once every service's embedding queue is empty. */
async function hybridOutcome(loaded: LoadedCorpusStore, questions: readonly RealCorpusQuestion[], embedder: EmbeddingClient): Promise<DatasetOutcome> {
  return withServices(loaded, embedder, async (services) => {
    const settles = [...services.values()].map((service) => (service as { embeddingsSettled?: () => Promise<void> }).embeddingsSettled?.bind(service));
    if (settles.some((settle) => settle === undefined)) return { note: "MemoryServiceOptions.embedder has not landed (no embeddingsSettled)" };
    for (const settle of settles) await settle!();
    const started = performance.now();
    const keys = await serviceKeys(loaded, services, questions);
    return { keys, seconds: (performance.now() - started) / 1000 };
  });
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
