/**
 * Interleaves the local file tool figures of two (or more) checkouts of this
 * repository call by call and prints the ratio table, side / baseline:
 *
 *   pnpm exec tsx bench/workspace/local-vs-before-driver.ts --a=/tmp/now:local --b=/tmp/before:none [--c=/tmp/now:none] [--runs=15] [--warmups=5] [--only=glob,edit] [--json=out.json]
 *
 * Each side is `<built checkout>:<local|none>` (with or without
 * `createLocalWorkspace`); `--b` is the baseline. Every side is one
 * long-lived process of local-vs-before.ts `--serve` (its own registry on its
 * own fresh copy of rules-3k). Every side first runs every selected
 * operation `--warmups` times (untimed); then per operation every side runs
 * once more, then the sides take turns run by run, their order rotating
 * (A B, B A, ...), so the machine's load hits them alike. Each row prints
 * the medians, the ratio of the medians, the median of the paired ratios
 * (the sides' calls of the same run, back to back), the median CPU time of
 * the side's process during the call and its ratio, and the calls the
 * `local` sides made to the workspace's ports during the operation. The load
 * average is printed at the start and the end of every operation.
 */
import { type ChildProcessByStdio, execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { medianOf } from "./local-vs-before.js";

const option = (name: string) => process.argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Number(option("runs") ?? 15);
const warmups = Number(option("warmups") ?? 5);
const only = option("only") ? new Set(option("only")!.split(",")) : undefined;
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "local-vs-before.ts");
const loads = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/** One checkout served by a child process. */
interface Side {
  readonly name: string;
  readonly tree: string;
  readonly workspace: string;
  readonly commit: string;
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  readonly lines: AsyncIterator<string>;
}

async function request(side: Side, body: object): Promise<Record<string, unknown>> {
  side.child.stdin.write(`${JSON.stringify(body)}\n`);
  const next = await side.lines.next();
  if (next.done) throw new Error(`side ${side.name} (${side.tree}) ended`);
  const answer = JSON.parse(next.value) as Record<string, unknown>;
  if (answer.error) throw new Error(`side ${side.name}: ${answer.error}`);
  return answer;
}

async function startSide(name: string, spec: string): Promise<Side & { operations: Array<{ id: string; label: string }> }> {
  const at = spec.lastIndexOf(":");
  const tree = path.resolve(at > 0 ? spec.slice(0, at) : spec);
  const workspace = at > 0 ? spec.slice(at + 1) : "none";
  const commit = execFileSync("git", ["-C", tree, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  const child = spawn(process.execPath, [...process.execArgv, script, `--tree=${tree}`, `--workspace=${workspace}`, "--serve"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const side = { name, tree, workspace, commit, child, lines };
  const first = await lines.next();
  if (first.done) throw new Error(`side ${name} (${tree}) did not start`);
  const ready = JSON.parse(first.value) as { operations: Array<{ id: string; label: string }> };
  return { ...side, operations: ready.operations };
}

const specs = (["a", "b", "c", "d"] as const).flatMap((name) => (option(name) ? [[name, option(name)!] as const] : []));
if (specs.length < 2 || !specs.some(([name]) => name === "b"))
  throw new Error("give at least --a=<checkout>:<local|none> and --b=<checkout>:<local|none> (the baseline)");
const sides = await Promise.all(specs.map(([name, spec]) => startSide(name, spec)));
const baseline = sides.find((side) => side.name === "b")!;
console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, load ${loads()}, median of ${runs} interleaved runs per figure after ${warmups} warm-up rounds, ${new Date().toISOString()}`,
);
for (const side of sides) console.log(`side ${side.name}: ${side.tree} (${side.commit}) workspace ${side.workspace}${side === baseline ? " (baseline)" : ""}`);
const selected = baseline.operations.filter((operation) => !only || only.has(operation.id));
// Warm-up rounds through every selected operation on every side before any figure: V8 compiles the hot
// code on background threads, which would otherwise land in the first figures (their CPU time and, on a
// loaded machine, their wall time).
for (let round = 0; round < warmups; round += 1) {
  for (const operation of selected) for (const side of sides) await request(side, { id: operation.id });
}
const report: Array<Record<string, unknown>> = [];
for (const operation of selected) {
  const loadBefore = loads();
  const summaries = new Map<string, string>();
  for (const side of sides) summaries.set(side.name, String((await request(side, { id: operation.id })).summary));
  const portsBefore = new Map<string, Record<string, number>>();
  for (const side of sides) portsBefore.set(side.name, (await request(side, { id: "ports" })).ports as Record<string, number>);
  const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  const cpuTimes = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  for (let index = 0; index < runs; index += 1) {
    for (let turn = 0; turn < sides.length; turn += 1) {
      const side = sides[(index + turn) % sides.length]!;
      const answer = await request(side, { id: operation.id });
      times.get(side.name)!.push(Number(answer.ms));
      cpuTimes.get(side.name)!.push(Number(answer.cpuMs));
    }
  }
  const cells = [operation.label];
  const base = times.get(baseline.name)!;
  const figure: Record<string, unknown> = { id: operation.id, label: operation.label, loadBefore, loadAfter: loads(), sides: {} };
  for (const side of sides) {
    const own = times.get(side.name)!;
    const ports = (await request(side, { id: "ports" })).ports as Record<string, number>;
    const before = portsBefore.get(side.name)!;
    const portCalls = Object.entries(ports)
      .map(([key, count]) => [key, count - (before[key] ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .map(([key, count]) => `${key} ${count}`)
      .join(", ");
    const medianMs = medianOf(own);
    const ratio = medianMs / medianOf(base);
    const paired = medianOf(own.map((value, index) => value / base[index]!));
    const cpuMs = medianOf(cpuTimes.get(side.name)!);
    const cpuRatio = cpuMs / medianOf(cpuTimes.get(baseline.name)!);
    let cell = `${side.name} ${medianMs.toFixed(1).padStart(7)} ms`;
    if (side !== baseline) cell += ` ${ratio.toFixed(2)}x paired ${paired.toFixed(2)}x`;
    cell += ` cpu ${cpuMs.toFixed(1)} ms`;
    if (side !== baseline) cell += ` ${cpuRatio.toFixed(2)}x`;
    if (side.workspace === "local") cell += ` ports: ${portCalls || "none"}`;
    cells.push(cell);
    (figure.sides as Record<string, unknown>)[side.name] = {
      medianMs,
      ratio,
      paired,
      cpuMs,
      cpuRatio,
      timesMs: own,
      cpuTimesMs: cpuTimes.get(side.name),
      portCalls,
      summary: summaries.get(side.name),
    };
  }
  const same = new Set(summaries.values()).size === 1;
  cells.push(same ? `same result: ${summaries.get(baseline.name)}` : `RESULTS DIFFER: ${[...summaries].map(([name, text]) => `${name}: ${text}`).join(" / ")}`);
  cells.push(`load ${loadBefore} -> ${loads()}`);
  console.log(cells.join(" | "));
  report.push(figure);
}
for (const side of sides) side.child.stdin.end();
await Promise.all(sides.map((side) => new Promise((resolve) => side.child.once("close", resolve))));
console.log(`load after: ${loads()}`);
const json = option("json");
if (json) {
  const described = sides.map(({ name, tree, workspace, commit }) => ({ name, tree, workspace, commit }));
  writeFileSync(json, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, sides: described, figures: report }, null, 2)}\n`);
}
