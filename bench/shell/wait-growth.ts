/**
 * What back-to-back waits on a chatty background command leave behind: N
 * ProcessWait calls on a Bash session running `yes` (each returns at once
 * with a 64 KiB page) and N ManagedProcess(action="wait") calls on a managed
 * `yes`, with a fresh per-call signal (the registry's default) and with one
 * shared "turn" signal. After a warm-up, prints the heapUsed / RSS growth
 * after a full GC over two blocks of N calls (a leak grows in both; a
 * bounded path only in the first, if at all), per call, and the abort
 * listeners left on the shared signal.
 *
 * Run: NODE_OPTIONS=--expose-gc npx tsx --conditions=@agent-tools/source bench/shell/wait-growth.ts [calls]
 */
import { getEventListeners } from "node:events";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/sdk";
import { createShellToolBundle } from "@agent-tools/tools-shell";

const calls = Number(process.argv[2] ?? "200");
const gc = globalThis.gc;
if (!gc) {
  console.error("Run with NODE_OPTIONS=--expose-gc so the growth is measured after a full GC.");
  process.exit(1);
}

/** Heap and resident set after two full collections (weak references are cleared between them). */
async function settled(): Promise<{ heap: number; rss: number }> {
  for (let round = 0; round < 3; round += 1) {
    gc!();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

type Waiter = (signal: AbortSignal | undefined, index: number) => Promise<void>;

interface Variant {
  label: string;
  /** Starts the chatty command; returns one wait call and a stop. */
  start(registry: ReturnType<typeof createToolRegistry>): Promise<{ wait: Waiter; stop(): Promise<void> }>;
}

const variants: Variant[] = [
  {
    label: "ProcessWait on a Bash session running `yes`",
    async start(registry) {
      const started = await registry.executeToolCall({ id: "start", name: "Bash", arguments: { command: "exec yes chatty", yield_time_ms: 250 } });
      const details = started.details as { session_id: string; cursor: number; status: string };
      if (details.status !== "running") throw new Error(`expected a running session, got ${details.status}`);
      let cursor = details.cursor;
      return {
        async wait(signal, index) {
          const result = await registry.executeToolCall(
            { id: `wait-${index}`, name: "ProcessWait", arguments: { session_id: details.session_id, cursor, yield_time_ms: 5_000 } },
            { signal },
          );
          cursor = (result.details as { cursor: number }).cursor;
        },
        async stop() {
          await registry.executeToolCall({ id: "stop", name: "ProcessStop", arguments: { session_id: details.session_id } });
        },
      };
    },
  },
  {
    label: 'ManagedProcess(action="wait") on a managed `yes`',
    async start(registry) {
      const started = await registry.executeToolCall({ id: "start", name: "ManagedProcess", arguments: { action: "start", command: "exec yes chatty" } });
      const processId = (started.details as { process: { process_id: string } }).process.process_id;
      let cursor = 0;
      return {
        async wait(signal, index) {
          const result = await registry.executeToolCall(
            { id: `wait-${index}`, name: "ManagedProcess", arguments: { action: "wait", process_id: processId, cursor, yield_time_ms: 5_000 } },
            { signal },
          );
          cursor = (result.details as { log: { cursor: number } }).log.cursor;
        },
        async stop() {
          await registry.executeToolCall({ id: "stop", name: "ManagedProcess", arguments: { action: "stop", process_id: processId } });
        },
      };
    },
  },
];

const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(2);
const kib = (bytes: number) => (bytes / 1024).toFixed(2);

for (const variant of variants) {
  for (const shared of [false, true]) {
    const workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "bench-wait-growth-")));
    const registry = createToolRegistry({ workdir, dataDir: workdir, bundles: [createShellToolBundle()], loopBreaker: false });
    const turn = new AbortController();
    const signal = () => (shared ? turn.signal : undefined);
    const running = await variant.start(registry);
    // Warm-up: JIT, schema caches, the first buffer growth.
    for (let index = 0; index < 200; index += 1) await running.wait(signal(), -index - 1);
    const marks = [await settled()];
    for (let block = 0; block < 2; block += 1) {
      for (let index = 0; index < calls; index += 1) await running.wait(signal(), block * calls + index);
      marks.push(await settled());
    }
    const growth = (from: number) =>
      `heapUsed ${mib(marks[from + 1]!.heap - marks[from]!.heap)} MiB (${kib((marks[from + 1]!.heap - marks[from]!.heap) / calls)} KiB/call), ` +
      `RSS ${mib(marks[from + 1]!.rss - marks[from]!.rss)} MiB`;
    const listeners = shared ? `; abort listeners on the shared signal: ${getEventListeners(turn.signal, "abort").length}` : "";
    console.log(
      `${variant.label}, ${shared ? "one shared signal" : "a fresh signal per call"}: after GC, first ${calls} calls: ${growth(0)}; next ${calls} calls: ${growth(1)}${listeners}`,
    );
    await running.stop();
    await registry.close();
    rmSync(workdir, { recursive: true, force: true });
  }
}
