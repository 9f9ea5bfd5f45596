/**
 * How soon a waiting ProcessWait sees a command's exit. The command prints
 * the time (`date +%s%N`) as its last act; the latency is the time from then
 * to the ProcessWait result. Each round also runs the same command through a
 * bare `child_process.spawn` (time to its `close` event), so the figure can be
 * told apart from the machine's own scheduling delay. The same for
 * ManagedProcess(action="wait"), whose output goes to a log file: a wait
 * sleeping between log polls is woken by the exit.
 *
 * Run: npx tsx --conditions=@agent-tools/source bench/shell/wait-exit-latency.ts [rounds]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/sdk";
import { createShellToolBundle } from "@agent-tools/tools-shell";

const rounds = Number(process.argv[2] ?? "20");
const command = "sleep 0.6 && exec date +%s%N";
const now = () => performance.timeOrigin + performance.now();
const printedAt = (text: string) => Number(text.trim()) / 1e6;

async function bare(): Promise<number> {
  const child = spawn("/bin/bash", ["-c", command], { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const closedAt = await new Promise<number>((resolve) => child.on("close", () => resolve(now())));
  return closedAt - printedAt(out);
}

const workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "bench-wait-")));
const registry = createToolRegistry({ workdir, dataDir: workdir, bundles: [createShellToolBundle()], loopBreaker: false });
async function throughProcessWait(round: number): Promise<number> {
  const started = await registry.executeToolCall({ id: `s${round}`, name: "Bash", arguments: { command, yield_time_ms: 250 } });
  const startDetails = started.details as { session_id: string; status: string };
  if (startDetails.status !== "running") throw new Error(`expected a running session, got ${startDetails.status}`);
  const waited = await registry.executeToolCall({
    id: `w${round}`,
    name: "ProcessWait",
    arguments: { session_id: startDetails.session_id, cursor: 0, yield_time_ms: 30_000 },
  });
  const returnedAt = now();
  const details = waited.details as { status: string; output: { text: string }[] };
  if (details.status !== "completed") throw new Error(`expected completed, got ${details.status}`);
  return returnedAt - printedAt(details.output.map((fragment) => fragment.text).join(""));
}

async function throughManagedWait(round: number): Promise<number> {
  const started = await registry.executeToolCall({ id: `m${round}`, name: "ManagedProcess", arguments: { action: "start", command } });
  const processId = (started.details as { process: { process_id: string } }).process.process_id;
  const waited = await registry.executeToolCall({
    id: `mw${round}`,
    name: "ManagedProcess",
    arguments: { action: "wait", process_id: processId, cursor: 0, yield_time_ms: 30_000 },
  });
  const returnedAt = now();
  const details = waited.details as { process: { status: string }; log: { output: string } };
  if (details.process.status !== "exited") throw new Error(`expected exited, got ${details.process.status}`);
  return returnedAt - printedAt(details.log.output);
}

const session: number[] = [];
const managed: number[] = [];
const baseline: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  session.push(await throughProcessWait(round));
  managed.push(await throughManagedWait(round));
  baseline.push(await bare());
}
await registry.close();
rmSync(workdir, { recursive: true, force: true });

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
}
console.log(`ProcessWait sees the exit (${rounds} rounds): ${summary(session)}`);
console.log(`ManagedProcess(action="wait") sees the exit: ${summary(managed)}`);
console.log(`bare child_process.spawn 'close' (same command, same machine): ${summary(baseline)}`);
console.log(
  `load average: ${os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`,
);
