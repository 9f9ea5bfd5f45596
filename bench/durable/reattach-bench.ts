/**
 * Reattach time of a durable Bash session after its host was SIGKILLed
 * (issue 36). Each round: a host process (the tools-shell test fixture
 * `durable-host.ts`: a registry with `durableSessions`) starts Bash with a
 * command that prints 200,000 bytes at once and then a short line every
 * 20 ms; the host reads the first page and is killed with SIGKILL. This
 * process then builds a new registry on the same directory and measures:
 *
 * - registry: building the new registry (bundle, option checks);
 * - backlog: its first ProcessWait (no cursor: the persisted one) until it
 *   returns with the first page of the output the dead host left unread (a
 *   64 KiB page is ready, so it returns at once);
 * - live: a ProcessWait at the end of the log until its first streamed
 *   update (`onUpdate`) carries new output (the command writes every 20 ms,
 *   the session polls every 50 ms); the call is then aborted, which stops the
 *   session's whole tree.
 *
 * Run from the repository root:
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/durable/reattach-bench.ts [--rounds=N] [--quick]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import { startHost } from "../../packages/tools-shell/src/__fixtures__/durable-hosts.js";
import { createNodeToolRegistry } from "../../packages/tools-shell/src/__fixtures__/node-tool-registry.js";

const argv = process.argv.slice(2);
const roundsArgument = argv.find((argument) => argument.startsWith("--rounds="))?.slice("--rounds=".length);
const rounds = roundsArgument ? Number(roundsArgument) : argv.includes("--quick") ? 5 : 20;
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer (got ${roundsArgument}).`);

const COMMAND = "head -c 200000 /dev/zero | tr '\\0' x; echo; while :; do echo tick; sleep 0.02; done";

interface Round {
  registryMs: number;
  backlogMs: number;
  backlogBytes: number;
  liveMs: number;
}

async function round(scratch: string, index: number): Promise<Round> {
  const workdir = path.join(scratch, `work-${index}`);
  const dir = path.join(scratch, "sessions");
  fs.mkdirSync(workdir);
  const host = startHost({ mode: "start", workdir, dir, command: COMMAND, waits: 0, idle: true });
  const started = await host.until((line) => line.call === "Bash");
  await host.until((line) => line.ready === true);
  host.child.kill("SIGKILL");
  await host.exited;
  const sessionId = started.session_id!;

  const t0 = performance.now();
  const registry = createNodeToolRegistry({ workdir, dataDir: workdir, bundles: [createShellToolBundle({ durableSessions: { dir } })], loopBreaker: false });
  const t1 = performance.now();
  const backlog = await registry.executeToolCall({ id: `bench-${index}-1`, name: "ProcessWait", arguments: { session_id: sessionId, yield_time_ms: 5_000 } });
  const t2 = performance.now();
  const details = backlog.details as { cursor: number; next_cursor: number; output: { text: string }[] };
  const backlogBytes = Buffer.byteLength(details.output.map((fragment) => fragment.text).join(""));
  if (backlogBytes === 0) throw new Error(`round ${index}: the first ProcessWait after the reattach returned no bytes`);

  const controller = new AbortController();
  let firstUpdate = 0;
  const liveStart = performance.now();
  const live = registry.executeToolCall(
    { id: `bench-${index}-2`, name: "ProcessWait", arguments: { session_id: sessionId, cursor: details.next_cursor, yield_time_ms: 30_000 } },
    {
      signal: controller.signal,
      onUpdate: () => {
        if (firstUpdate !== 0) return;
        firstUpdate = performance.now();
        controller.abort();
      },
    },
  );
  await live;
  await registry.close();
  if (firstUpdate === 0) throw new Error(`round ${index}: no streamed update`);
  return { registryMs: t1 - t0, backlogMs: t2 - t1, backlogBytes, liveMs: firstUpdate - liveStart };
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

function row(label: string, values: readonly number[]): string {
  const format = (value: number) => value.toFixed(1).padStart(7);
  return `${label.padEnd(10)} median ${format(percentile(values, 0.5))} ms   p90 ${format(percentile(values, 0.9))} ms   min ${format(Math.min(...values))} ms   max ${format(Math.max(...values))} ms`;
}

const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "reattach-bench-")));
try {
  const results: Round[] = [];
  for (let index = 0; index < rounds; index += 1) results.push(await round(scratch, index));
  console.log(
    `Reattach of a durable Bash session after SIGKILL of its host: ${rounds} rounds, Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]!.toFixed(2)}`,
  );
  console.log(
    row(
      "registry",
      results.map((result) => result.registryMs),
    ),
  );
  console.log(
    row(
      "backlog",
      results.map((result) => result.backlogMs),
    ),
  );
  console.log(
    row(
      "live",
      results.map((result) => result.liveMs),
    ),
  );
  console.log(
    `backlog page: ${percentile(
      results.map((result) => result.backlogBytes),
      0.5,
    )} bytes (median)`,
  );
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
