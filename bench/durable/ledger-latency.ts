/**
 * The call ledger's added latency per tool call (issue 36):
 * `registry.executeToolCall(call, { durable: { runId } })` on a registry with
 * a ledger against the same call without `durable`, on a registry of one
 * cheap tool (`Echo`, a `defineTool` that returns its text, effects
 * `unsafe`, so each durable call does the full path: get, start, run,
 * finish). Pairs run interleaved (plain, durable, plain, durable, ...), each
 * durable call with a fresh call id; the difference of each pair is the
 * ledger's cost. Also: the ledger's own start + finish round trip, and a
 * replayed call (a completed call asked again: one get, the tool not run).
 *
 * Backends: memory (the floor), SQLite (a file in a temp directory: WAL,
 * synchronous=NORMAL), PostgreSQL (`AGENT_TOOLS_PG_URL`, else the throwaway
 * test cluster, which runs with fsync=off: its figures then leave out the
 * disk flush of a commit; a real server's `synchronous_commit=on` adds it).
 * Target of the issue: p50 of the added latency under 1 ms on SQLite.
 * Run from the repository root:
 *
 *   pnpm exec tsx --conditions=@agent-tools/source bench/durable/ledger-latency.ts [--calls=N] [--quick] [--backend=memory,sqlite,postgres]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolCall, type ToolRegistry, createToolRegistry, defineTool } from "@agent-tools/core";
import type { CallLedger } from "@agent-tools/core/durable";
import { InMemoryCallLedger, openCallLedger } from "@agent-tools/durable";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, findPostgresBinDir, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { z } from "zod";

const TARGET_SQLITE_P50_MS = 1;
type BackendName = "memory" | "sqlite" | "postgres";

interface Settings {
  calls: number;
  backends: BackendName[];
}

function settingsOf(argv: readonly string[]): Settings {
  const value = (name: string) => argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const callsText = value("calls");
  const calls = callsText === undefined ? (argv.includes("--quick") ? 300 : 3000) : Number(callsText);
  if (!Number.isInteger(calls) || calls < 20) throw new RangeError(`--calls must be an integer >= 20, got ${callsText}`);
  const backends = (value("backend") ?? "memory,sqlite,postgres").split(",") as BackendName[];
  for (const backend of backends) if (!["memory", "sqlite", "postgres"].includes(backend)) throw new RangeError(`--backend: unknown ${backend}`);
  return { calls, backends };
}

/** The value below which `share` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
const sorted = (values: readonly number[]) => [...values].sort((left, right) => left - right);
const ms = (value: number) => `${value.toFixed(3)} ms`;

function echoRegistry(workdir: string, ledger?: CallLedger): ToolRegistry {
  const echo = defineTool({
    name: "Echo",
    description: "Answers its text.",
    inputSchema: z.object({ text: z.string() }),
    effects: "unsafe",
    execute: ({ text }) => ({ content: text }),
  });
  return createToolRegistry({ workdir, bundles: [{ id: "bench", trusted: true, listTools: () => [echo] }], ...(ledger === undefined ? {} : { ledger }) });
}

interface Row {
  backend: string;
  plainP50: number;
  durableP50: number;
  addedP50: number;
  addedP99: number;
  ledgerP50: number;
  ledgerP99: number;
  replayP50: number;
}

async function measure(backend: string, ledger: CallLedger, workdir: string, calls: number): Promise<Row> {
  const plain = echoRegistry(workdir);
  const durable = echoRegistry(workdir, ledger);
  const runId = `bench-${backend}-${process.pid}-${Date.now()}`;
  const call = (id: string): ToolCall => ({ id, name: "Echo", arguments: { text: `hello ${id}` } });
  const plainTimes: number[] = [];
  const durableTimes: number[] = [];
  const added: number[] = [];
  const warmUp = Math.min(200, Math.floor(calls / 5));
  for (let index = 0; index < warmUp + calls; index += 1) {
    let started = performance.now();
    const plainResult = await plain.executeToolCall(call(`p${index}`));
    const plainMs = performance.now() - started;
    started = performance.now();
    const durableResult = await durable.executeToolCall(call(`d${index}`), { durable: { runId } });
    const durableMs = performance.now() - started;
    if (plainResult.isError || durableResult.isError) throw new Error(`Echo failed: ${JSON.stringify(durableResult.isError ? durableResult : plainResult)}`);
    if (index < warmUp) continue;
    plainTimes.push(plainMs);
    durableTimes.push(durableMs);
    added.push(durableMs - plainMs);
  }
  // The ledger alone: start + finish of a fresh call, as the executor writes them.
  const ledgerTimes: number[] = [];
  const result = { content: [{ type: "text" as const, text: "hello" }], details: {}, isError: false };
  for (let index = 0; index < calls; index += 1) {
    const key = { runId, callId: `raw${index}`, toolName: "Echo", argumentsHash: "0".repeat(64), effects: "unsafe" as const };
    const started = performance.now();
    const claim = await ledger.start(key, 0);
    await ledger.finish(key, claim.entry.attempts, { state: "completed", result });
    ledgerTimes.push(performance.now() - started);
  }
  // A replay: the call completed before, so the executor answers the recorded result (one read, the tool not run).
  const replayTimes: number[] = [];
  for (let index = 0; index < calls; index += 1) {
    const started = performance.now();
    await durable.executeToolCall(call(`d${warmUp + index}`), { durable: { runId } });
    replayTimes.push(performance.now() - started);
  }
  await plain.close();
  await durable.close();
  await ledger.deleteRun(runId);
  const addedSorted = sorted(added);
  const ledgerSorted = sorted(ledgerTimes);
  return {
    backend,
    plainP50: percentile(sorted(plainTimes), 0.5),
    durableP50: percentile(sorted(durableTimes), 0.5),
    addedP50: percentile(addedSorted, 0.5),
    addedP99: percentile(addedSorted, 0.99),
    ledgerP50: percentile(ledgerSorted, 0.5),
    ledgerP99: percentile(ledgerSorted, 0.99),
    replayP50: percentile(sorted(replayTimes), 0.5),
  };
}

async function postgresUrl(): Promise<{ url: string; note: string; cluster?: PostgresTestCluster } | undefined> {
  const fromEnvironment = process.env.AGENT_TOOLS_PG_URL;
  if (fromEnvironment) return { url: fromEnvironment, note: "AGENT_TOOLS_PG_URL" };
  if (findPostgresBinDir() === undefined) return undefined;
  const cluster = await startPostgresTestCluster();
  return { url: await cluster.createDatabase("ledger_bench"), note: "test cluster, fsync=off", cluster };
}

async function main(): Promise<void> {
  const settings = settingsOf(process.argv.slice(2));
  const workdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-ledger-bench-")));
  const cpus = os.cpus();
  console.log(
    `machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), Node ${process.version}, load ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(" / ")}`,
  );
  console.log(`calls per row: ${settings.calls} (after a warm-up), Echo tool, effects unsafe\n`);
  const rows: Row[] = [];
  try {
    for (const backend of settings.backends) {
      if (backend === "memory") rows.push(await measure("memory", new InMemoryCallLedger(), workdir, settings.calls));
      if (backend === "sqlite") {
        const storage = await openSqliteStorage({ dataDir: path.join(workdir, "data") });
        try {
          rows.push(await measure("SQLite (file, WAL)", await openCallLedger(storage), workdir, settings.calls));
        } finally {
          await storage.close();
        }
      }
      if (backend === "postgres") {
        const server = await postgresUrl();
        if (server === undefined) {
          console.log("skipped: no PostgreSQL (set AGENT_TOOLS_PG_URL or install the PostgreSQL binaries)");
          continue;
        }
        let storage: Storage | undefined;
        try {
          storage = await openPostgresStorage({ connectionString: server.url });
          rows.push(await measure(`PostgreSQL (${server.note})`, await openCallLedger(storage), workdir, settings.calls));
        } finally {
          await storage?.close();
          await server.cluster?.stop();
        }
      }
    }
  } finally {
    fs.rmSync(workdir, { recursive: true, force: true });
  }
  console.log("| backend | plain p50 | durable p50 | ratio p50 | added p50 | added p99 | ledger start+finish p50 / p99 | replay p50 |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.backend} | ${ms(row.plainP50)} | ${ms(row.durableP50)} | ${(row.durableP50 / row.plainP50).toFixed(2)}x | ${ms(row.addedP50)} | ${ms(row.addedP99)} | ${ms(row.ledgerP50)} / ${ms(row.ledgerP99)} | ${ms(row.replayP50)} |`,
    );
  }
  const sqlite = rows.find((row) => row.backend.startsWith("SQLite"));
  if (sqlite !== undefined)
    console.log(
      `\ntarget: added p50 under ${TARGET_SQLITE_P50_MS} ms on SQLite: ${sqlite.addedP50 < TARGET_SQLITE_P50_MS ? "met" : "NOT met"} (${ms(sqlite.addedP50)})`,
    );
}

await main();
