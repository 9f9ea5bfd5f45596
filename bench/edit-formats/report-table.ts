/** The benchmark's printed table: per format and perturbation, ours and the peer side by side. */
import { PERTURBATIONS } from "./perturb/perturbations.js";
import { type BenchReport, EDIT_FORMATS, type Tally, tallyKey } from "./run-bench.js";

const percent = (part: number, whole: number) => (whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`);

function cells(tally: Tally | undefined): string[] {
  if (!tally) return ["-", "-", "-", "-"];
  const wrong = `${tally.wrong}${tally.crashed ? ` (${tally.crashed} crashed)` : ""}`;
  return [percent(tally.exact, tally.cases), percent(tally.refused, tally.cases), String(tally.whitespace), wrong];
}

/** The table as Markdown rows (what the README quotes). */
export function formatReportTable(report: BenchReport, peerName: string | undefined): string {
  const peer = peerName ?? "peer";
  const rows = [
    `| format | perturbation | cases | ours exact | ours refused | ours whitespace | ours wrong | ${peer} exact | ${peer} refused | ${peer} whitespace | ${peer} wrong |`,
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const format of EDIT_FORMATS) {
    for (const perturbation of PERTURBATIONS) {
      const ours = report.tallies.get(tallyKey(format, perturbation, "ours"));
      if (!ours) continue;
      const theirs = peerName ? report.tallies.get(tallyKey(format, perturbation, peerName)) : undefined;
      rows.push(`| ${format} | ${perturbation} | ${ours.cases} | ${[...cells(ours), ...cells(theirs)].join(" | ")} |`);
    }
  }
  return rows.join("\n");
}

/** Total wrong results of an engine over every format and perturbation. */
export function totalWrong(report: BenchReport, engine: string): number {
  let wrong = 0;
  for (const [key, tally] of report.tallies) if (key.endsWith(`/${engine}`)) wrong += tally.wrong;
  return wrong;
}
