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
  const rows = peerName
    ? [
        `| format | perturbation | cases | ours exact | ours refused | ours whitespace | ours wrong | ${peerName} exact | ${peerName} refused | ${peerName} whitespace | ${peerName} wrong |`,
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
      ]
    : ["| format | perturbation | cases | exact | refused | whitespace | wrong |", "|---|---|---:|---:|---:|---:|---:|"];
  for (const format of EDIT_FORMATS) {
    for (const perturbation of PERTURBATIONS) {
      const ours = report.tallies.get(tallyKey(format, perturbation, "ours"));
      if (!ours) continue;
      const theirs = peerName ? cells(report.tallies.get(tallyKey(format, perturbation, peerName))) : [];
      rows.push(`| ${format} | ${perturbation} | ${ours.cases} | ${[...cells(ours), ...theirs].join(" | ")} |`);
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
