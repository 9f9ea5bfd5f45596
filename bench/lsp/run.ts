/**
 * Time to first diagnostics after an edit on the 3,000-file TypeScript
 * corpus (aws-cdk-lib's declarations, bench/lsp/corpus.ts), cold and warm,
 * beside `tsc --noEmit -p` on the same project.
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/lsp/run.ts [--runs=3]
 *
 * Each run works on a copy of the corpus and starts from no running server:
 * - cold: the first edit (one use of a class renamed to an undeclared name)
 *   until the error is seen: tsserver starts and loads the project meanwhile;
 * - warm: the next edit, in another file, on the running server;
 * - both through a registry with `lsp: true` (Read, Edit with the default
 *   1.5 s diagnostics budget, then LSP diagnostics calls until one shows the
 *   error when the Edit's result did not: bench/lsp/registry-engine.ts), and
 *   through the EditDiagnostics provider alone with a budget large enough
 *   never to give `pending` (180 s; the file tools cap a provider step at
 *   10 s, so this one is not reachable through Edit: bench/lsp/provider-engine.ts);
 * - tsc: `tsc --noEmit -p` of the repository's TypeScript with both edits in
 *   place (its output must hold both errors).
 * Prints medians with their range, ratios to tsc, the Edit results' statuses
 * and the load average (the machine is shared). No figure is asserted.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fetchCorpus, typeScriptFiles } from "./corpus.js";
import { editProbes } from "./edit-probes.js";
import { findClassGroundTruth } from "./ground-truth.js";
import { type EditTiming, runProviderEdits } from "./provider-engine.js";
import { runRegistryEdits } from "./registry-engine.js";
import { runTsc } from "./tsc-peer.js";

interface Sample {
  readonly ms: number;
  readonly found: boolean;
  readonly status?: string;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function row(name: string, samples: readonly Sample[], tscMedian: number): string {
  const good = samples.filter((sample) => sample.found).map((sample) => sample.ms);
  const statuses = [...new Set(samples.map((sample) => sample.status).filter(Boolean))].join("/") || "-";
  const missed = samples.length - good.length;
  if (good.length === 0) return `| ${name} | never seen | - | - | ${statuses} |`;
  const value = median(good);
  const range = `${Math.round(Math.min(...good)).toLocaleString("en")}-${Math.round(Math.max(...good)).toLocaleString("en")}`;
  const note = missed > 0 ? ` (${missed} of ${samples.length} runs never saw the error)` : "";
  return `| ${name} | ${Math.round(value).toLocaleString("en")}${note} | ${range} | ${(value / tscMedian).toFixed(2)} | ${statuses} |`;
}

async function main(): Promise<void> {
  const runsFlag = process.argv.slice(2).find((argument) => argument.startsWith("--runs="));
  const runs = runsFlag ? Number(runsFlag.slice("--runs=".length)) : 3;
  const corpus = await fetchCorpus();
  const work = mkdtempSync(path.join(os.tmpdir(), "lsp-bench-"));
  const root = path.join(work, "project");
  cpSync(corpus.root, root, { recursive: true });
  try {
    const probes = editProbes(findClassGroundTruth(typeScriptFiles(root, false), 6));
    const pair = [probes[0], probes.find((probe) => probe.file !== probes[0]?.file)] as const;
    if (!pair[0] || !pair[1]) throw new Error("the corpus gave fewer than two edits in different files");
    const edits = [pair[0], pair[1]] as const;
    const cpus = os.cpus();
    process.stdout.write(
      `corpus: ${corpus.manifest.packages.map((item) => `${item.name}@${item.version}`).join(" + ")}, ${corpus.manifest.typeScriptFiles} .ts/.d.ts files (${corpus.manifest.projectFiles} in the tsconfig)\n` +
        `edits: cold ${path.relative(root, edits[0].file)}:${edits[0].line} (${edits[0].missingName}), warm ${path.relative(root, edits[1].file)}:${edits[1].line} (${edits[1].missingName})\n` +
        `machine: ${cpus.length} x ${cpus[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, load average ${loadAverage()} at the start; ${runs} runs, interleaved\n\n`,
    );
    const samples = {
      coldEdit: [] as EditTiming[],
      warmEdit: [] as EditTiming[],
      coldLarge: [] as EditTiming[],
      warmLarge: [] as EditTiming[],
      tsc: [] as Sample[],
    };
    const shown = (timing: EditTiming) => `${Math.round(timing.ms)} ms (${timing.status}${timing.found ? "" : ", error never seen"})`;
    for (let run = 1; run <= runs; run += 1) {
      const viaEdit = await runRegistryEdits({ root, dataDir: path.join(work, `data-${run}`), probes: edits, followUpWaitMs: 180_000 });
      samples.coldEdit.push(viaEdit.cold);
      samples.warmEdit.push(viaEdit.warm);
      const large = await runProviderEdits({ root, probes: edits, budgetMs: 180_000, followUpWaitMs: 0 });
      samples.coldLarge.push(large.cold);
      samples.warmLarge.push(large.warm);
      const tsc = await runTsc(root, edits);
      samples.tsc.push(tsc);
      process.stdout.write(
        `run ${run}: Edit cold ${shown(viaEdit.cold)}, warm ${shown(viaEdit.warm)}; provider (180 s budget) cold ${shown(large.cold)}, warm ${shown(large.warm)}; tsc ${Math.round(tsc.ms)} ms (${tsc.errors} errors, ours ${tsc.found ? "found" : "MISSING"}); load ${loadAverage()}\n`,
      );
    }
    const tscFound = samples.tsc.filter((sample) => sample.found).map((sample) => sample.ms);
    const tscMedian = median(tscFound.length > 0 ? tscFound : samples.tsc.map((sample) => sample.ms));
    process.stdout.write(
      [
        "",
        "| measure | median ms | range ms | / tsc | edit report status |",
        "|---|---:|---:|---:|---|",
        row("cold: first Edit (lsp: true), then LSP diagnostics until shown", samples.coldEdit, tscMedian),
        row("warm: next Edit", samples.warmEdit, tscMedian),
        row("cold: provider alone, 180 s budget (server start + project load)", samples.coldLarge, tscMedian),
        row("warm: provider alone, next edit", samples.warmLarge, tscMedian),
        row("tsc --noEmit -p (TypeScript 5.9.3)", samples.tsc, tscMedian),
        "",
      ].join("\n"),
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
