/**
 * File tools benchmark (not a test): Grep, Glob and Edit side by side with
 * their peers in one process run, printing the median of N runs (after a
 * warm-up) and the ratio tool / peer.
 *
 *   npx tsx --conditions=@agent-tools/source bench/fs/fs-bench.ts [--quick] [--runs=N] [--only=grep,glob,edit] [--repo=base|x20|rules-3k|rules-60k]
 *
 * Peers: the `rg` binary run directly with the same query; `rg --files` and
 * globby with `gitignore: true`; a plain read + write of the edited file.
 * The figures live in grep-bench.ts, glob-bench.ts and edit-bench.ts.
 */
import os from "node:os";
import type { BenchSettings } from "./bench-util.js";
import { benchEdit } from "./edit-bench.js";
import { benchGlob, benchGlobFixedCost, type GlobFigure, printGlobGrowth } from "./glob-bench.js";
import { benchGrep } from "./grep-bench.js";
import { ensureBenchRepositories } from "./make-repository.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes("--quick");
const settings: BenchSettings = { quick, runs: Number(option("runs") ?? (quick ? 3 : 7)) };
/** Which figures to run (default all): `--only=grep,glob,edit`. */
const only = new Set((option("only") ?? "grep,glob,edit").split(","));
/** Which repositories the search figures use (default every one): `--repo=base` or `--repo=rules-3k,rules-60k`. */
const repoFilter = option("repo")?.split(",");
const loads = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

const repositories = ensureBenchRepositories();
const { rules } = repositories;
console.log(`base: ${repositories.trackedFiles} tracked files, ${repositories.ignoredFiles} ignored files in node_modules; x20: 20 copies`);
console.log(
  `rules-3k: ${rules.tracked3k} tracked files, ${rules.ignoreFiles3k} ignore files; rules-60k: ${rules.tracked60k} tracked files, ${rules.ignoreFiles60k} ignore files`,
);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, median of ${settings.runs} runs per figure\n`);
const globFigures = new Map<string, GlobFigure>();
for (const [label, repository] of [
  ["base", repositories.base],
  ["x20", repositories.x20],
  ["rules-3k", rules.rules3k],
  ["rules-60k", rules.rules60k],
] as const) {
  if (repoFilter && !repoFilter.includes(label)) continue;
  if (only.has("grep")) await benchGrep(label, repository, settings);
  if (only.has("glob")) globFigures.set(label, await benchGlob(label, repository, settings));
}
const fixedCost = only.has("glob") ? await benchGlobFixedCost(settings) : undefined;
for (const [small, large] of [
  ["base", "x20"],
  ["rules-3k", "rules-60k"],
] as const) {
  const smallFigure = globFigures.get(small);
  const largeFigure = globFigures.get(large);
  if (smallFigure && largeFigure && fixedCost) printGlobGrowth(small, smallFigure, large, largeFigure, fixedCost);
}
if (only.has("edit")) await benchEdit(repositories.base, settings);
console.log(`\nload after: ${loads()}`);
