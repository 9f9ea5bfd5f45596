/**
 * File tools benchmark (not a test): Grep, Glob and Edit side by side with
 * their peers in one process run, printing the median of N runs (after a
 * warm-up) and the ratio tool / peer.
 *
 *   npx tsx --conditions=@agent-tools/source bench/fs/fs-bench.ts [--quick] [--runs=N] [--only=grep,glob,edit] [--repo=base|x20]
 *
 * Peers: the `rg` binary run directly with the same query; `rg --files` and
 * globby with `gitignore: true`; a plain read + write of the edited file.
 * The figures live in grep-bench.ts, glob-bench.ts and edit-bench.ts.
 */
import os from "node:os";
import type { BenchSettings } from "./bench-util.js";
import { benchEdit } from "./edit-bench.js";
import { benchGlob } from "./glob-bench.js";
import { benchGrep } from "./grep-bench.js";
import { ensureBenchRepositories } from "./make-repository.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes("--quick");
const settings: BenchSettings = { quick, runs: Number(option("runs") ?? (quick ? 3 : 7)) };
/** Which figures to run (default all): `--only=grep,glob,edit`. */
const only = new Set((option("only") ?? "grep,glob,edit").split(","));
/** Which repositories the search figures use (default every one): `--repo=base`. */
const repoFilter = option("repo");
const loads = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

const repositories = ensureBenchRepositories();
console.log(`base: ${repositories.trackedFiles} tracked files, ${repositories.ignoredFiles} ignored files in node_modules; x20: 20 copies`);
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, median of ${settings.runs} runs per figure\n`);
for (const [label, repository] of [
  ["base", repositories.base],
  ["x20", repositories.x20],
] as const) {
  if (repoFilter && repoFilter !== label) continue;
  if (only.has("grep")) await benchGrep(label, repository, settings);
  if (only.has("glob")) await benchGlob(label, repository, settings);
}
if (only.has("edit")) await benchEdit(repositories.base, settings);
console.log(`\nload after: ${loads()}`);
