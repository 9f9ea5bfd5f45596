/**
 * Compares two runs of the same questions (two rankings, or one ranking
 * before and after a change), question by question, so a tuner sees what a
 * change won and lost, not only the averages.
 */
import type { QuestionRetrieval } from "./retrieval-metrics.js";

/** One question whose rank moved. */
export interface RankChange {
  readonly id: string;
  readonly kind: QuestionRetrieval["kind"];
  readonly text: string;
  /** Rank in the first run (null: not in the top 10). */
  readonly before: number | null;
  /** Rank in the second run. */
  readonly after: number | null;
}

/** The questions a second run ranks better and worse than the first, biggest moves first. */
export interface RankComparison {
  readonly improved: readonly RankChange[];
  readonly worsened: readonly RankChange[];
  /** Questions of the first run that the second lacks (by id), or the reverse. */
  readonly unmatched: number;
}

const depth = (rank: number | null) => rank ?? 11;

/**
 * Matches `before` and `after` by question id and lists every question whose
 * rank of the first answering entry moved (a miss counts as rank 11).
 *
 * @example
 * const { improved, worsened } = compareRuns(baseline.questions, tuned.questions);
 */
export function compareRuns(before: readonly QuestionRetrieval[], after: readonly QuestionRetrieval[]): RankComparison {
  const afterById = new Map(after.map((question) => [question.id, question]));
  const improved: RankChange[] = [];
  const worsened: RankChange[] = [];
  let matched = 0;
  for (const question of before) {
    const other = afterById.get(question.id);
    if (other === undefined) continue;
    matched += 1;
    const change = { id: question.id, kind: question.kind, text: question.text, before: question.rank, after: other.rank };
    if (depth(other.rank) < depth(question.rank)) improved.push(change);
    else if (depth(other.rank) > depth(question.rank)) worsened.push(change);
  }
  const move = (change: RankChange) => Math.abs(depth(change.before) - depth(change.after));
  improved.sort((left, right) => move(right) - move(left));
  worsened.sort((left, right) => move(right) - move(left));
  return { improved, worsened, unmatched: before.length - matched + (after.length - matched) };
}
