/**
 * Runs the file-tools benchmark (bench/fs/fs-bench.ts) of two checkouts in
 * turns, A B A B ..., each run in its own checkout through its own `tsx`
 * with the source condition, and prints per figure the median over the
 * rounds of each side's medians and their ratio (side a / side b):
 *
 *   pnpm exec tsx bench/workspace/fs-bench-alternate.ts --a=/tmp/now --b=/tmp/before [--rounds=3] [--args="--only=grep,glob --repo=rules-3k --runs=7"] [--json=out.json]
 *
 * Both checkouts must have the same bench/fs (the figures are matched by
 * their printed labels). A round's order alternates (A B, then B A), so a
 * load that grows or falls during the runs hits both alike. Every cell of
 * a row with a time (`tool 12.3 ms`, `pure-TS ..`, `rg ..`) is a figure;
 * the peers' cells (`rg`, globby, plain read + write) run the same
 * programs in both checkouts and show how much the load moved between
 * runs.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { medianOf } from "./local-vs-before.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const a = option("a");
const b = option("b");
if (!a || !b) throw new Error("give --a=<checkout> and --b=<checkout> (the baseline)");
const rounds = Number(option("rounds") ?? 3);
const benchArgs = (option("args") ?? "--only=grep,glob --repo=rules-3k --runs=7").split(/\s+/).filter(Boolean);
const loads = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** Figures of one run: "<row label> | <cell name>" -> ms. */
function runOnce(checkout: string): Map<string, number> {
  const output = execFileSync(path.join(checkout, "node_modules", ".bin", "tsx"), ["--conditions=@agent-tools/source", "bench/fs/fs-bench.ts", ...benchArgs], {
    cwd: checkout,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const figures = new Map<string, number>();
  for (const line of output.split("\n")) {
    const cells = line.split(" | ");
    if (cells.length < 3) continue;
    // The label: the row's cells up to its first timed cell, with counts that differ between trees left in (they must not).
    const label = cells.slice(0, 2).join(" | ");
    for (const cell of cells.slice(2)) {
      const match = /^(.*?)\s+(\d+(?:\.\d+)?) ms/.exec(cell.trim());
      if (match) figures.set(`${label} | ${match[1]}`, Number(match[2]));
    }
  }
  return figures;
}

const runsOf = { a: [] as Array<Map<string, number>>, b: [] as Array<Map<string, number>> };
console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, ${rounds} rounds of fs-bench.ts ${benchArgs.join(" ")}, ${new Date().toISOString()}`,
);
console.log(`a: ${a}\nb: ${b} (baseline)`);
for (let round = 0; round < rounds; round += 1) {
  for (const name of round % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const)) {
    const before = loads();
    runsOf[name].push(runOnce(name === "a" ? a : b));
    console.log(`round ${round + 1} side ${name}: load ${before} -> ${loads()}`);
  }
}
const result: Array<Record<string, unknown>> = [];
for (const key of runsOf.b[0]!.keys()) {
  const over = runsOf.a.map((figures) => figures.get(key));
  const under = runsOf.b.map((figures) => figures.get(key)!);
  if (over.some((value) => value === undefined)) {
    console.log(`${key} | missing in a`);
    continue;
  }
  const medianA = medianOf(over as number[]);
  const medianB = medianOf(under);
  console.log(
    `${key} | a ${medianA.toFixed(1)} ms | b ${medianB.toFixed(1)} ms | ${(medianA / medianB).toFixed(2)}x | a runs ${over.map((v) => v!.toFixed(1)).join(" ")} | b runs ${under.map((v) => v.toFixed(1)).join(" ")}`,
  );
  result.push({ figure: key, a: over, b: under, ratio: medianA / medianB });
}
console.log(`load after: ${loads()}`);
const json = option("json");
if (json) writeFileSync(json, `${JSON.stringify({ date: new Date().toISOString(), a, b, rounds, args: benchArgs, figures: result }, null, 2)}\n`);
