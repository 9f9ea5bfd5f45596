/**
 * Streams 1 GiB through a resumable Bash session and compares it with a bare
 * `child_process.spawn` reading the same bytes; samples the host's resident
 * memory while the session runs. Prints, per variant, the host CPU time per
 * GiB (user + system of this process, robust on a shared machine) and the
 * wall time, both as ratios to the bare spawn (medians of interleaved rounds).
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/shell/session-throughput.ts [GiB] [rounds]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/sdk";
import { createShellToolBundle } from "@agent-tools/tools-shell";

const GIB = 1024 ** 3;
const bytes = Math.round(Number(process.argv[2] ?? "1") * GIB);
// One producer process, so the reader (not a pipeline of tools) is what is measured.
const producer = `exec head -c ${bytes} /dev/zero`;

/** Host CPU seconds (user + system) since `since`. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

/** Samples the resident set every 20 ms; `stop()` returns the growth in MiB. */
function sampleRss(): { stop(): number } {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, process.memoryUsage().rss);
      return (peak - before) / 1024 ** 2;
    },
  };
}

async function bareSpawn(): Promise<{ seconds: number; received: number; cpu: number; rssGrowthMiB: number }> {
  const rss = sampleRss();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const child = spawn("/bin/bash", ["-c", producer], { stdio: ["ignore", "pipe", "pipe"] });
  let received = 0;
  child.stdout.on("data", (chunk: Buffer) => (received += chunk.length));
  child.stderr.on("data", () => undefined);
  await new Promise((resolve) => child.on("close", resolve));
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, received, cpu: cpuSeconds(cpu), rssGrowthMiB: rss.stop() };
}

interface SessionRun {
  /** Until the reader saw the terminal state (includes the pauses between calls). */
  seconds: number;
  /** Until the session itself ended (its `duration_ms`): the ingest time, without the reader's pauses. */
  endedSeconds: number;
  received: number;
  calls: number;
  rssGrowthMiB: number;
  truncated: boolean;
  /** Host CPU seconds spent. */
  cpu: number;
}

/** `pollMs` = pause between ProcessWait calls (a model's round trip); 0 = a hot reader. */
async function throughSession(pollMs: number): Promise<SessionRun> {
  const workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "bench-shell-")));
  const registry = createToolRegistry({ workdir, dataDir: workdir, bundles: [createShellToolBundle()], loopBreaker: false });
  // Warm up the call path (schema validation, JIT) so it is not counted as growth.
  await registry.executeToolCall({ id: "warm-up", name: "Bash", arguments: { command: "echo warm" } });
  const rss = sampleRss();
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  let calls = 1;
  let truncated = false;
  let result = await registry.executeToolCall({ id: "start", name: "Bash", arguments: { command: producer, yield_time_ms: 30_000 } });
  let details = result.details as { status: string; session_id: string; cursor: number; next_cursor: number; output_truncated: boolean; duration_ms: number };
  while (details.status === "running") {
    if (pollMs > 0) await new Promise((resolve) => setTimeout(resolve, pollMs));
    result = await registry.executeToolCall({
      id: `wait-${calls}`,
      name: "ProcessWait",
      arguments: { session_id: details.session_id, cursor: details.cursor, yield_time_ms: 300_000 },
    });
    details = result.details as typeof details;
    truncated ||= details.output_truncated;
    calls += 1;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuUsed = cpuSeconds(cpu);
  const rssGrowthMiB = rss.stop();
  await registry.close();
  rmSync(workdir, { recursive: true, force: true });
  return { seconds, endedSeconds: details.duration_ms / 1000, received: details.next_cursor, calls, rssGrowthMiB, truncated, cpu: cpuUsed };
}

const gibPerSecond = (received: number, seconds: number) => received / GIB / seconds;

// The machine may be shared: bare and session runs alternate, and each figure
// is the median of its rounds.
const rounds = Number(process.argv[3] ?? "5");
const variants = [
  ["session, ProcessWait every 1 s (model cadence)", 1_000],
  ["session, back-to-back ProcessWait (hot reader)", 0],
] as const;
const bareRuns: Awaited<ReturnType<typeof bareSpawn>>[] = [];
const sessionRuns = new Map<string, SessionRun[]>(variants.map(([label]) => [label, []]));
for (let round = 0; round < rounds; round += 1) {
  bareRuns.push(await bareSpawn());
  for (const [label, pollMs] of variants) sessionRuns.get(label)!.push(await throughSession(pollMs));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const bare = { received: bareRuns[0]!.received, seconds: median(bareRuns.map((run) => run.seconds)), cpu: median(bareRuns.map((run) => run.cpu)) };
const bareRate = gibPerSecond(bare.received, bare.seconds);
const list = (values: number[], digits = 2) => values.map((value) => value.toFixed(digits)).join(" / ");
console.log(
  `bare child_process.spawn: ${(bare.received / GIB).toFixed(2)} GiB, wall ${list(bareRuns.map((run) => run.seconds))} s, median ${bareRate.toFixed(2)} GiB/s; ` +
    `host CPU ${list(bareRuns.map((run) => run.cpu))} s, median ${(bare.cpu / (bare.received / GIB)).toFixed(2)} s per GiB; RSS growth ${list(
      bareRuns.map((run) => run.rssGrowthMiB),
      1,
    )} MiB`,
);
for (const [label, runs] of sessionRuns) {
  const seconds = median(runs.map((run) => run.seconds));
  const cpu = median(runs.map((run) => run.cpu));
  const received = runs[0]!.received;
  // Per GiB, so a bare run and a session run compare even if their byte counts differ.
  const perGib = (value: number) => value / (received / GIB) / (bare.seconds / (bare.received / GIB));
  const wallRatio = perGib(seconds);
  const endedRatio = perGib(median(runs.map((run) => run.endedSeconds)));
  const cpuRatio = cpu / (received / GIB) / (bare.cpu / (bare.received / GIB));
  console.log(
    `${label}: wall ${list(runs.map((run) => run.seconds))} s, median ${gibPerSecond(received, seconds).toFixed(2)} GiB/s; ` +
      `session ended after ${list(runs.map((run) => run.endedSeconds))} s; host CPU ${list(runs.map((run) => run.cpu))} s, median ${(cpu / (received / GIB)).toFixed(2)} s per GiB; ` +
      `${runs.map((run) => run.calls).join(" / ")} calls, RSS growth ${list(
        runs.map((run) => run.rssGrowthMiB),
        1,
      )} MiB, output_truncated seen: ${runs.some((run) => run.truncated)}`,
  );
  console.log(
    `  vs bare spawn per GiB: CPU ${cpuRatio.toFixed(2)}x, wall ${endedRatio.toFixed(2)}x until the session ended, ${wallRatio.toFixed(2)}x until the reader saw it (medians of ${runs.length} interleaved rounds)`,
  );
}
console.log(
  `load average: ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);
