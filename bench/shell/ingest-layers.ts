/**
 * Where streaming time goes: the same bytes read by a bare
 * `child_process.spawn`, by `ExecaProcessRunner`, and by a `ShellSession`
 * (runner + UTF-8 joiner + 1 MiB ring buffer), alternating over several
 * rounds because the machine may be shared. Reports, per layer, the median
 * wall time and the median host CPU time (user + system of this process:
 * what the reader costs, whatever else the machine runs) and both as ratios
 * to the bare spawn.
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/shell/ingest-layers.ts [MiB] [rounds]
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { ExecaProcessRunner } from "@agent-tools/node";
// ShellSession is internal to tools-shell: the benchmark reads it from the source.
import { ShellSession } from "../../packages/tools-shell/src/shell-session.js";

const mebibytes = Number(process.argv[2] ?? "256");
const rounds = Number(process.argv[3] ?? "8");
const command = `exec head -c ${mebibytes * 1024 * 1024} /dev/zero`;
const runner = new ExecaProcessRunner();

const layers: Record<string, () => Promise<void>> = {
  "bare spawn": async () => {
    const child = spawn("/bin/bash", ["-c", command], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", () => undefined);
    await new Promise((resolve) => child.on("close", resolve));
  },
  ExecaProcessRunner: async () => {
    const child = runner.spawn({ command, shell: "/bin/bash", cwd: os.tmpdir() });
    child.onOutput(() => undefined);
    await child.exited;
    await child.outputClosed;
  },
  ShellSession: async () => {
    const session = new ShellSession({ id: "bench", command, cwd: os.tmpdir(), shell: "/bin/bash", runner });
    // A cursor far ahead: the wait returns only at the terminal state.
    while ((await session.wait(Number.MAX_SAFE_INTEGER, 600_000)) !== "terminal");
  },
};

const samples = new Map<string, { wall: number[]; cpu: number[] }>();
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(layers)) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await run();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const entry = samples.get(name) ?? { wall: [], cpu: [] };
    entry.wall.push(wall);
    entry.cpu.push((used.user + used.system) / 1000);
    samples.set(name, entry);
  }
}
await runner.close();
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const bare = samples.get("bare spawn")!;
const gib = mebibytes / 1024;
for (const [name, entry] of samples) {
  const wall = median(entry.wall);
  const cpu = median(entry.cpu);
  console.log(
    `${name}: wall median ${wall.toFixed(0)} ms (min ${Math.min(...entry.wall).toFixed(0)}, ${(gib / (wall / 1000)).toFixed(2)} GiB/s, ${(wall / median(bare.wall)).toFixed(2)}x bare); ` +
      `host CPU median ${(cpu / gib).toFixed(0)} ms per GiB (min ${(Math.min(...entry.cpu) / gib).toFixed(0)}, ${(cpu / median(bare.cpu)).toFixed(2)}x bare)`,
  );
}
console.log(
  `load average: ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);
