/**
 * Where streaming time goes: the same bytes read by a bare
 * `child_process.spawn`, by `ExecaProcessRunner`, and by a `ShellSession`
 * (runner + UTF-8 joiner + 1 MiB ring buffer), alternating over several
 * rounds because the machine may be shared. Reports min and median per layer.
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/shell/ingest-layers.ts [MiB] [rounds]
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { ExecaProcessRunner } from "@agent-tools/node";
import { ShellSession } from "@agent-tools/tools-shell";

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

const times = new Map<string, number[]>();
for (let round = 0; round < rounds; round += 1) {
  for (const [name, run] of Object.entries(layers)) {
    const started = performance.now();
    await run();
    const list = times.get(name) ?? [];
    list.push(performance.now() - started);
    times.set(name, list);
  }
}
await runner.close();
for (const [name, list] of times) {
  const sorted = [...list].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  const rate = (ms: number) => (mebibytes / 1024 / (ms / 1000)).toFixed(2);
  console.log(`${name}: min ${sorted[0]!.toFixed(0)} ms (${rate(sorted[0]!)} GiB/s), median ${median.toFixed(0)} ms (${rate(median)} GiB/s)`);
}
console.log(
  `load average: ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);
