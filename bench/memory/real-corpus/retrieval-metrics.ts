/**
 * Recall@k and MRR of a ranking over the real corpus's questions.
 * recall@k: the share of questions with at least one evidence entry among the
 * first k hits. MRR: the mean over questions of 1 / the rank of the first
 * evidence hit within the first 10 (0 when none is there).
 */
import type { RealDatasetName } from "./corpus-types.js";
import { QUESTION_KINDS, type QuestionKind } from "./question-kinds.js";

/** How many hits every ranking returns, and the deepest rank that counts. */
export const RESULT_LIMIT = 10;

/** Metrics of one group of questions. */
export interface RetrievalMetrics {
  readonly questions: number;
  readonly recallAt1: number;
  readonly recallAt5: number;
  readonly recallAt10: number;
  readonly mrr: number;
}

/** The outcome of one question under one ranking (so a tuner can diff two runs). */
export interface QuestionRetrieval {
  readonly id: string;
  readonly dataset: RealDatasetName;
  readonly kind: QuestionKind;
  readonly text: string;
  readonly evidence: readonly string[];
  /** 1-based rank of the first evidence entry, or null when none is in the top 10. */
  readonly rank: number | null;
  /** Keys (`<project>/<slug>`) of the hits, best first, at most 10. */
  readonly top: readonly string[];
}

/** Rank (1-based) of the first of `top` that is in `evidence`, or null. */
export function firstEvidenceRank(top: readonly string[], evidence: readonly string[]): number | null {
  const wanted = new Set(evidence);
  const index = top.slice(0, RESULT_LIMIT).findIndex((key) => wanted.has(key));
  return index === -1 ? null : index + 1;
}

/** Metrics of `results` (all zero for an empty list, with `questions` 0). */
export function metricsOf(results: readonly QuestionRetrieval[]): RetrievalMetrics {
  const count = results.length;
  const within = (k: number) => (count === 0 ? 0 : results.filter((result) => result.rank !== null && result.rank <= k).length / count);
  const mrr = count === 0 ? 0 : results.reduce((sum, result) => sum + (result.rank === null ? 0 : 1 / result.rank), 0) / count;
  return { questions: count, recallAt1: within(1), recallAt5: within(5), recallAt10: within(RESULT_LIMIT), mrr };
}

/** Metrics overall, per kind, per dataset and per dataset and kind. */
export interface RetrievalBreakdown {
  readonly overall: RetrievalMetrics;
  readonly byKind: Readonly<Partial<Record<QuestionKind, RetrievalMetrics>>>;
  readonly byDataset: Readonly<Partial<Record<RealDatasetName, RetrievalMetrics>>>;
  readonly byDatasetKind: Readonly<Partial<Record<RealDatasetName, Partial<Record<QuestionKind, RetrievalMetrics>>>>>;
}

/** Groups `results` and computes every group's metrics (groups without questions are left out). */
export function breakdownOf(results: readonly QuestionRetrieval[]): RetrievalBreakdown {
  const byKind: Partial<Record<QuestionKind, RetrievalMetrics>> = {};
  const byDataset: Partial<Record<RealDatasetName, RetrievalMetrics>> = {};
  const byDatasetKind: Partial<Record<RealDatasetName, Partial<Record<QuestionKind, RetrievalMetrics>>>> = {};
  for (const kind of QUESTION_KINDS) {
    const group = results.filter((result) => result.kind === kind);
    if (group.length > 0) byKind[kind] = metricsOf(group);
  }
  for (const dataset of new Set(results.map((result) => result.dataset))) {
    const inDataset = results.filter((result) => result.dataset === dataset);
    byDataset[dataset] = metricsOf(inDataset);
    const kinds: Partial<Record<QuestionKind, RetrievalMetrics>> = {};
    for (const kind of QUESTION_KINDS) {
      const group = inDataset.filter((result) => result.kind === kind);
      if (group.length > 0) kinds[kind] = metricsOf(group);
    }
    byDatasetKind[dataset] = kinds;
  }
  return { overall: metricsOf(results), byKind, byDataset, byDatasetKind };
}
