/**
 * Prints reports of the real corpus as tables: one row per group (all, each
 * question kind, each dataset, each dataset's kinds), and per ranking the
 * columns recall@1, @5, @10 and MRR. A ranking that could not run prints
 * `n/a` with its note. Columns: BM25 = plain BM25 computed in the bench,
 * lexical = the SDK's default search, vector = the vector index alone,
 * hybrid = the SDK's search with the embedder.
 */
import { printTable } from "../bench-util.js";
import { REAL_DATASET_NAMES } from "./corpus-types.js";
import type { RetrievalReport } from "./evaluate.js";
import { QUESTION_KINDS } from "./question-kinds.js";
import type { RetrievalMetrics } from "./retrieval-metrics.js";

/** Column titles of the rankings. */
export const RANKING_TITLES: Readonly<Record<RetrievalReport["ranking"], string>> = {
  "plain-bm25": "BM25",
  lexical: "lexical",
  vector: "vector",
  hybrid: "hybrid",
};

const cell = (value: number) => value.toFixed(3);

function cells(metrics: RetrievalMetrics | undefined, available: boolean): string[] {
  if (!available || metrics === undefined) return ["n/a", "n/a", "n/a", "n/a"];
  return [cell(metrics.recallAt1), cell(metrics.recallAt5), cell(metrics.recallAt10), cell(metrics.mrr)];
}

/** Rows of a table of `reports`: label, then per report its four figures; `datasetKinds` false leaves out each dataset's kind rows. */
export function reportRows(reports: readonly RetrievalReport[], datasetKinds = true): string[][] {
  const reference = reports.find((report) => report.available) ?? reports[0]!;
  const groups: [string, (report: RetrievalReport) => RetrievalMetrics | undefined][] = [["all", (report) => report.overall]];
  for (const kind of QUESTION_KINDS) if (reference.byKind[kind] !== undefined) groups.push([`  ${kind}`, (report) => report.byKind[kind]]);
  const datasets = REAL_DATASET_NAMES.filter((dataset) => reference.byDataset[dataset] !== undefined);
  // With one dataset its rows would repeat the kinds above.
  for (const dataset of datasets.length > 1 ? datasets : []) {
    groups.push([dataset, (report) => report.byDataset[dataset]]);
    for (const kind of datasetKinds ? QUESTION_KINDS : []) {
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

function groupsOf(report: RetrievalReport): [string, RetrievalMetrics][] {
  const groups: [string, RetrievalMetrics][] = [["all", report.overall]];
  for (const kind of QUESTION_KINDS) if (report.byKind[kind] !== undefined) groups.push([kind, report.byKind[kind]!]);
  if (Object.keys(report.byDataset).length > 1) {
    for (const dataset of REAL_DATASET_NAMES) if (report.byDataset[dataset] !== undefined) groups.push([dataset, report.byDataset[dataset]!]);
  }
  return groups;
}

const points = (delta: number) => `${delta >= 0 ? "+" : ""}${(delta * 100).toFixed(1)}`;

/**
 * Lines comparing recall@5 and MRR: the SDK's lexical search against plain
 * BM25, and hybrid against lexical, per group; the groups where the
 * challenger is worse are named as such.
 */
export function verdictLines(reports: readonly RetrievalReport[]): string[] {
  const byRanking = new Map(reports.filter((report) => report.available).map((report) => [report.ranking, report]));
  const lines: string[] = [];
  const lexical = byRanking.get("lexical");
  const bm25 = byRanking.get("plain-bm25");
  if (lexical !== undefined && bm25 !== undefined) {
    const gain = lexical.overall.recallAt5 - bm25.overall.recallAt5;
    lines.push(
      `target (lexical beats plain BM25 by at least 5 points of recall@5): ${gain >= 0.05 ? "met" : "NOT met"}, ${points(gain)} points (${cell(bm25.overall.recallAt5)} -> ${cell(lexical.overall.recallAt5)})`,
    );
  }
  for (const [challenger, baseline] of [
    ["lexical", "plain-bm25"],
    ["hybrid", "lexical"],
    ["vector", "lexical"],
  ] as const) {
    const left = byRanking.get(challenger);
    const right = byRanking.get(baseline);
    if (left === undefined || right === undefined) continue;
    const groups = groupsOf(left);
    const base = new Map(groupsOf(right));
    const deltas = groups.map(([label, metrics]) => ({
      label,
      recall: metrics.recallAt5 - base.get(label)!.recallAt5,
      mrr: metrics.mrr - base.get(label)!.mrr,
    }));
    const worse = deltas.filter((delta) => delta.recall < 0 || delta.mrr < 0).map((delta) => delta.label);
    lines.push(
      `${RANKING_TITLES[challenger]} vs ${RANKING_TITLES[baseline]}, points of recall@5 / MRR: ` +
        deltas.map((delta) => `${delta.label} ${points(delta.recall)} / ${points(delta.mrr)}`).join(", ") +
        (worse.length > 0 ? `; WORSE on ${worse.join(", ")}` : "; better or equal on every group"),
    );
  }
  return lines;
}

/**
 * Lines saying, per set and ranking, how often every other backend ranked
 * the same top 10 (and the same first hit) as the first backend.
 */
export function backendAgreement(runs: readonly { readonly set: string; readonly reports: readonly RetrievalReport[] }[]): string[] {
  const lines: string[] = [];
  for (const set of new Set(runs.map((run) => run.set))) {
    const ofSet = runs.filter((run) => run.set === set);
    const first = ofSet[0]!;
    for (const other of ofSet.slice(1)) {
      for (const report of other.reports) {
        const reference = first.reports.find((candidate) => candidate.ranking === report.ranking);
        if (report.ranking === "plain-bm25" || !report.available || reference === undefined || !reference.available) continue;
        let same = 0;
        let sameFirst = 0;
        for (const [index, question] of report.questions.entries()) {
          const expected = reference.questions[index]!.top;
          if (question.top.join("\n") === expected.join("\n")) same += 1;
          if (question.top[0] === expected[0]) sameFirst += 1;
        }
        lines.push(
          `${set}, ${RANKING_TITLES[report.ranking]}: ${report.backend} ranks the same top 10 as ${reference.backend} for ${same} of ${report.questions.length} questions ` +
            `(same first hit ${sameFirst}); recall@5 ${cell(report.overall.recallAt5)} vs ${cell(reference.overall.recallAt5)}`,
        );
      }
    }
  }
  return lines;
}

/**
 * A Markdown table of `reports` for the docs: one row per group, one column
 * per ranking, each cell `recall@1 / @5 / @10 / MRR` (two decimals);
 * `datasetKinds` false leaves out each dataset's kind rows (the compact table of the docs).
 */
export function markdownTable(reports: readonly RetrievalReport[], datasetKinds = true): string {
  const rows = reportRows(reports, datasetKinds).slice(1);
  const short = (value: string) => (value === "n/a" ? value : Number(value).toFixed(2));
  const lines = [
    `| questions | n | ${reports.map((report) => RANKING_TITLES[report.ranking]).join(" | ")} |`,
    `|---|---:|${reports.map(() => "---").join("|")}|`,
  ];
  for (const row of rows) {
    const label = row[0]!.startsWith("  ") ? `&nbsp;&nbsp;${row[0]!.trim()}` : `**${row[0]}**`;
    const figures = reports.map((_, index) =>
      row
        .slice(2 + index * 4, 6 + index * 4)
        .map(short)
        .join(" / "),
    );
    lines.push(`| ${label} | ${row[1]} | ${figures.join(" | ")} |`);
  }
  return lines.join("\n");
}
