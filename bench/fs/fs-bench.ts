/**
 * File tools benchmark (not a test): Grep, Glob, Read and Edit side by side
 * with their peers in one process run, interleaved run by run, printing the
 * median of N runs (after a warm-up), the ratio tool / peer, and at the end
 * the worst figure against each target of issue 34.
 *
 *   npx tsx --conditions=@agent-tools/source bench/fs/fs-bench.ts [--quick] [--runs=N] [--only=grep,glob,read,edit]
 *     [--repo=gemini-cli,gemini-cli-x20,base,x20,rules-3k,rules-60k] [--edit-mb=10,20,50]
 *
 * The trees: by default the real ones (make-real-repository.ts: gemini-cli at
 * a pinned commit with an ignored node_modules, and 20 copies of it); the
 * generated ones (make-repository.ts, make-rules-corpus.ts) with --repo=.
 * Peers: the `rg` binary the tools run, with the same query and file set
 * (`rg`, `rg -l`, `rg --count`) and the floor `rg` + decode; `rg --files`
 * and globby; streaming the first 200 lines of a file; a plain read + write
 * of the edited file and bare system calls. The figures live in
 * grep-bench.ts, glob-bench.ts, read-bench.ts and edit-bench.ts.
 */
import os from "node:os";
import path from "node:path";
import { TargetLog } from "./bench-targets.js";
import { type FsBenchSettings, loads } from "./bench-util.js";
import { benchEdit } from "./edit-bench.js";
import { benchGlob, benchGlobFixedCost, type GlobFigure, printGlobGrowth } from "./glob-bench.js";
import { benchGrep } from "./grep-bench.js";
import { ensureRealRepositories, GEMINI_CLI_COMMIT } from "./make-real-repository.js";
import { ensureBenchRepositories } from "./make-repository.js";
import { benchRead } from "./read-bench.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes("--quick");
const settings: FsBenchSettings = {
  quick,
  runs: Number(option("runs") ?? (quick ? 3 : 7)),
  editMegabytes: (option("edit-mb") ?? "10").split(",").map(Number),
  targets: new TargetLog(),
};
/** Which figures to run (default all): `--only=grep,glob,read,edit`. */
const only = new Set((option("only") ?? "grep,glob,read,edit").split(","));
/** Which trees the search figures use: `--repo=gemini-cli` or `--repo=rules-3k,rules-60k` (default both real ones; --quick: gemini-cli). */
const repoNames = (option("repo") ?? (quick ? "gemini-cli" : "gemini-cli,gemini-cli-x20")).split(",");
const started = performance.now();
const root = path.join(os.tmpdir(), "agent-tools-bench-fs");

const real = ensureRealRepositories(root);
console.log(
  `gemini-cli ${GEMINI_CLI_COMMIT.slice(0, 12)}: ${real.trackedFiles} tracked files, ${real.ignoredFiles} ignored files in node_modules; gemini-cli-x20: 20 copies, ${real.ignoreFilesX20} .gitignore files`,
);
const trees = new Map<string, string>([
  ["gemini-cli", real.checkout],
  ["gemini-cli-x20", real.x20],
]);
if (repoNames.some((name) => !trees.has(name))) {
  const generated = ensureBenchRepositories(root);
  const { rules } = generated;
  console.log(`base: ${generated.trackedFiles} tracked files, ${generated.ignoredFiles} ignored files in node_modules; x20: 20 copies`);
  console.log(
    `rules-3k: ${rules.tracked3k} tracked files, ${rules.ignoreFiles3k} ignore files; rules-60k: ${rules.tracked60k} tracked files, ${rules.ignoreFiles60k} ignore files`,
  );
  for (const [name, tree] of [
    ["base", generated.base],
    ["x20", generated.x20],
    ["rules-3k", rules.rules3k],
    ["rules-60k", rules.rules60k],
  ] as const) {
    trees.set(name, tree);
  }
}
console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, median of ${settings.runs} interleaved runs per figure\n`);

const globFigures = new Map<string, GlobFigure>();
for (const name of repoNames) {
  const tree = trees.get(name);
  if (!tree) throw new Error(`unknown --repo ${name}`);
  if (only.has("grep")) await benchGrep(name, tree, settings);
  if (only.has("glob")) globFigures.set(name, await benchGlob(name, tree, settings));
  console.log(`(load ${loads()})`);
}
const fixedCost = only.has("glob") ? await benchGlobFixedCost(settings) : undefined;
for (const [small, large] of [
  ["gemini-cli", "gemini-cli-x20"],
  ["base", "x20"],
  ["rules-3k", "rules-60k"],
] as const) {
  const smallFigure = globFigures.get(small);
  const largeFigure = globFigures.get(large);
  if (smallFigure && largeFigure && fixedCost) printGlobGrowth(small, smallFigure, large, largeFigure, fixedCost);
}
if (only.has("read")) {
  await benchRead(real.checkout, path.join(root, "read-files"), settings);
  console.log(`(load ${loads()})`);
}
if (only.has("edit")) await benchEdit(real.checkout, settings);
settings.targets.print();
console.log(`\nload after: ${loads()}; took ${((performance.now() - started) / 60_000).toFixed(1)} min`);
