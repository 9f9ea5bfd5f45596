/**
 * Per-call cost of the bubblewrap sandbox: Bash `true` and Bash `echo hello`
 * through `registry.executeToolCall` of a `buildBuiltinToolRegistry`
 * registry, unconfined vs confined (`sandbox: { enabled: true }`, the
 * default: its own user namespace with no capability, no network with a
 * private /run and the host's Unix sockets masked, private /tmp, hidden
 * credentials, a clean environment), wall time per call. Also the probe
 * (the trial confined command a registry runs when it is built, checking
 * capabilities and namespaces inside).
 *
 * The chat-scope Bash (a resumable session that completes within its
 * yield) is what a model calls; the sides alternate in rounds so machine
 * noise hits them alike. Medians with p95 and the range of the round
 * medians; nothing is asserted. Prints the 1-minute load average before
 * and after.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/sandbox/sandbox-startup.ts [calls per command and side=200]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { probeBubblewrapSandbox } from "@agent-tools/node";
import { buildBuiltinToolRegistry } from "@agent-tools/sdk";

const calls = Number(process.argv[2] ?? 200);
const warmup = 20;
const rounds = 10;

const base = mkdtempSync(path.join(os.tmpdir(), "bench-sandbox-"));
const workdir = path.join(base, "project");
mkdirSync(workdir);
const dataDir = path.join(base, "data");

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((left, right) => left - right),
    0.5,
  );
}

const probeTimes: number[] = [];
for (let index = 0; index < 10; index += 1) {
  const started = performance.now();
  const state = await probeBubblewrapSandbox();
  probeTimes.push(performance.now() - started);
  if (state.unavailable) {
    console.error(state.unavailable);
    process.exit(1);
  }
}

const unconfined = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
const confined = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, sandbox: { enabled: true } });
const sides = { unconfined, confined } as const;
const commands = ["true", "echo hello"];
const samples = new Map<string, number[]>();
const roundMedians = new Map<string, number[]>();
let sequence = 0;

async function call(registry: typeof unconfined, command: string): Promise<number> {
  sequence += 1;
  const started = performance.now();
  const result = await registry.executeToolCall({ id: `b${sequence}`, name: "Bash", arguments: { command } });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`Bash ${command} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  return elapsed;
}

const loadBefore = os.loadavg()[0] as number;
try {
  for (const command of commands) for (const registry of Object.values(sides)) for (let index = 0; index < warmup; index += 1) await call(registry, command);
  const perRound = Math.max(1, Math.floor(calls / rounds));
  for (let round = 0; round < rounds; round += 1) {
    for (const command of commands) {
      for (const [side, registry] of Object.entries(sides)) {
        const key = `${command}|${side}`;
        const times: number[] = [];
        for (let index = 0; index < perRound; index += 1) times.push(await call(registry, command));
        samples.set(key, [...(samples.get(key) ?? []), ...times]);
        roundMedians.set(key, [...(roundMedians.get(key) ?? []), median(times)]);
      }
    }
  }
} finally {
  await Promise.all([unconfined.close(), confined.close()]);
  rmSync(base, { recursive: true, force: true });
}
const loadAfter = os.loadavg()[0] as number;

const format = (value: number) => value.toFixed(2);
console.log(`bubblewrap sandbox start-up, ${os.cpus().length} cores, load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
console.log(`probe (trial confined true, 10 runs): median ${format(median(probeTimes))} ms`);
console.log("| Bash command | side | calls | p50 ms | p95 ms | round medians ms | p50 ratio | p50 added ms |");
console.log("|---|---|---|---|---|---|---|---|");
for (const command of commands) {
  const base50 = median(samples.get(`${command}|unconfined`) ?? []);
  for (const side of Object.keys(sides)) {
    const values = [...(samples.get(`${command}|${side}`) ?? [])].sort((left, right) => left - right);
    const medians = roundMedians.get(`${command}|${side}`) ?? [];
    const p50 = percentile(values, 0.5);
    console.log(
      `| \`${command}\` | ${side} | ${values.length} | ${format(p50)} | ${format(percentile(values, 0.95))} | ${format(Math.min(...medians))}-${format(Math.max(...medians))} | ${(p50 / base50).toFixed(2)}x | ${format(p50 - base50)} |`,
    );
  }
}
