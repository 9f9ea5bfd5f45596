/**
 * The offline edit-format benchmark (issue 37): real changes of public
 * repositories, each written as a V4A patch, as Edit pairs (one Edit call
 * each) and as one multi-edit call, unperturbed and with the mistakes models
 * make; applied by our engines and by Codex's apply_patch when its binary is
 * here. Prints per format and perturbation the cases, exact reproductions of
 * the new file, refusals and wrong results (target 0). No timing.
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/edit-formats/edit-formats-bench.ts [--corpus=DIR] [--limit=N] [--peer-cases=240] [--no-peer] [--save-cases]
 *
 * The peer starts one process per case (about 30 ms each on an idle machine,
 * several times that under load), so it runs on an even sample of
 * `--peer-cases` files (every k-th of the corpus; all with
 * `--peer-cases=0`), printed as a second table with ours on the same sample.
 *
 * The corpus is built first with build-corpus.ts (see its header).
 * `--save-cases` writes each unperturbed case ours did not reproduce, and
 * every wrong result of ours, under bench/edit-formats/cases/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CORPUS_DIR } from "./build-corpus.js";
import type { CorpusManifest } from "./corpus/corpus-types.js";
import { CODEX_PEER_PACKAGE, openCodexPeer } from "./engines/codex-peer.js";
import { formatReportTable, totalWrong } from "./report-table.js";
import { loadCorpus, runEditFormatsBench } from "./run-bench.js";

function flag(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length);
}

async function main(): Promise<void> {
  const corpusDir = flag("corpus") ?? DEFAULT_CORPUS_DIR;
  if (!existsSync(path.join(corpusDir, "cases.jsonl"))) {
    console.error(`no corpus at ${corpusDir}: build it with pnpm exec tsx bench/edit-formats/build-corpus.ts`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(path.join(corpusDir, "manifest.json"), "utf8")) as CorpusManifest;
  const limit = flag("limit");
  const cases = loadCorpus(corpusDir).slice(0, limit ? Number(limit) : undefined);
  const peer = process.argv.includes("--no-peer") ? undefined : openCodexPeer();
  console.log(`corpus: ${cases.length} changed files (seed ${manifest.seed}) of ${manifest.repositories.length} repositories:`);
  for (const repository of manifest.repositories) {
    console.log(`  ${repository.repo} @ ${repository.head.slice(0, 12)}: ${repository.files} files of ${repository.commits.length} commits`);
  }
  console.log(peer ? `peer: ${CODEX_PEER_PACKAGE}` : "peer: not available");
  try {
    const report = await runEditFormatsBench({ cases });
    console.log(`cases run: ${report.cases}; left out: ${JSON.stringify(report.skipped)}`);
    console.log(`perturbed edits left out as verbatim text of another place: ${JSON.stringify(report.verbatim)}`);
    console.log(formatReportTable(report, undefined));
    console.log(`wrong results: ours ${totalWrong(report, "ours")}`);
    if (peer) {
      const wanted = Number(flag("peer-cases") ?? 240);
      const step = wanted > 0 ? Math.max(1, Math.ceil(cases.length / wanted)) : 1;
      const sample = cases.filter((_, index) => index % step === 0);
      console.log(`\nV4A on the peer's sample (every ${step}${step === 1 ? "" : "th"} file: ${sample.length}):`);
      const peerReport = await runEditFormatsBench({ cases: sample, peer, formats: ["v4a"] });
      console.log(formatReportTable(peerReport, peer.name));
      console.log(`wrong results on the sample: ours ${totalWrong(peerReport, "ours")}, ${peer.name} ${totalWrong(peerReport, peer.name)}`);
      for (const finding of peerReport.findings.filter((item) => item.engine === peer.name && item.result === "wrong").slice(0, 12)) {
        console.log(`  ${peer.name} wrong ${finding.format}/${finding.perturbation} ${finding.id}`);
      }
    }
    const ours = report.findings.filter((finding) => finding.engine === "ours");
    // A few examples of each group (wrong results; refusals of unperturbed cases).
    const shown = new Map<string, number>();
    for (const finding of ours) {
      const group = `${finding.result} ${finding.format}/${finding.perturbation}`;
      const count = (shown.get(group) ?? 0) + 1;
      shown.set(group, count);
      if (count <= 3) console.log(`  ${group} ${finding.id}: ${finding.detail.split("\n")[0]}`);
    }
    if (process.argv.includes("--save-cases")) {
      const byId = new Map(cases.map((item) => [item.id, item]));
      const out = path.join(import.meta.dirname, "cases");
      mkdirSync(out, { recursive: true });
      ours.forEach((finding, index) => {
        const item = byId.get(finding.id);
        if (!item) return;
        const name = `${finding.format}-${finding.perturbation}-${index + 1}`;
        writeFileSync(path.join(out, `${name}.json`), `${JSON.stringify({ ...finding, oldText: item.oldText, newText: item.newText }, null, 1)}\n`);
      });
      console.log(`${ours.length} findings of ours saved under ${out}`);
    }
  } finally {
    peer?.close();
  }
}

await main();
