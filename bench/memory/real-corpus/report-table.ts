/**
 * Prints reports of the real corpus as tables: one row per group (all, each
 * question kind, each dataset, each dataset's kinds), and per ranking the
 * columns recall@1, @5, @10 and MRR. A ranking that could not run prints
 * `n/a` with its note.
 */
import { printTable } from "../bench-util.js";
import { REAL_DATASET_NAMES } from "./corpus-types.js";
import type { RetrievalReport } from "./evaluate.js";
import { QUESTION_KINDS } from "./question-kinds.js";
import type { RetrievalMetrics } from "./retrieval-metrics.js";

/** Column titles of the rankings. */
export const RANKING_TITLES: Readonly<Record<RetrievalReport["ranking"], string>> = {
  "plain-bm25": "plain BM25",
  lexical: "SDK lexical",
  vector: "SDK vector",
  hybrid: "SDK hybrid",
};

const cell = (value: number) => value.toFixed(3);

function cells(metrics: RetrievalMetrics | undefined, available: boolean): string[] {
  if (!available || metrics === undefined) return ["n/a", "n/a", "n/a", "n/a"];
  return [cell(metrics.recallAt1), cell(metrics.recallAt5), cell(metrics.recallAt10), cell(metrics.mrr)];
}

/** Rows of a table of `reports`: label, then per report its four figures. */
export function reportRows(reports: readonly RetrievalReport[]): string[][] {
  const reference = reports.find((report) => report.available) ?? reports[0]!;
  const groups: [string, (report: RetrievalReport) => RetrievalMetrics | undefined][] = [["all", (report) => report.overall]];
  for (const kind of QUESTION_KINDS) if (reference.byKind[kind] !== undefined) groups.push([`  ${kind}`, (report) => report.byKind[kind]]);
  for (const dataset of REAL_DATASET_NAMES) {
    if (reference.byDataset[dataset] === undefined) continue;
    groups.push([dataset, (report) => report.byDataset[dataset]]);
    for (const kind of QUESTION_KINDS) {
      if (reference.byDatasetKind[dataset]?.[kind] !== undefined) groups.push([`  ${kind}`, (report) => report.byDatasetKind[dataset]?.[kind]]);
    }
  }
  const header = ["questions", "n", ...reports.flatMap((report) => ["@1", "@5", "@10", "MRR"].map((metric) => `${RANKING_TITLES[report.ranking]} ${metric}`))];
  const rows = groups.map(([label, pick]) => [
    label,
    String(pick(reference)?.questions ?? 0),
    ...reports.flatMap((report) => cells(pick(report), report.available)),
  ]);
  return [header, ...rows];
}

/** Prints the table of `reports` and the notes of those that could not run. */
export function printReports(reports: readonly RetrievalReport[]): void {
  printTable(reportRows(reports));
  for (const report of reports) if (!report.available) console.log(`${RANKING_TITLES[report.ranking]} (${report.backend}): n/a, ${report.note}`);
}
