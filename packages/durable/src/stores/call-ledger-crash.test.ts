import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { CallLedger } from "@agent-tools/core/durable";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, describe, expect, it } from "vitest";
import { writeRun, writerCall, writerResultText } from "../__fixtures__/ledger-writer.js";
import { isConsistentEntry } from "../domain/call-ledger-transitions.js";
import { KyselyCallLedger } from "../index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const writer = path.join(here, "..", "__fixtures__", "ledger-writer.ts");
const repositoryRoot = path.resolve(here, "../../../..");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-ledger-crash-"));
const cluster = usePostgresTestCluster();
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const CALLS = 300;

/** What the writers acknowledged, over all their lives: a line is printed only after the write's promise resolved. */
interface Acknowledged {
  approved: Set<string>;
  started: Map<string, number>;
  finished: Map<string, number>;
}

/** Records one acknowledgement line; answers its kind. */
function acknowledge(acknowledged: Acknowledged, line: string): string | undefined {
  const [kind, callId, count] = line.split(" ");
  if (kind === "approved") acknowledged.approved.add(callId!);
  else if (kind === "started") acknowledged.started.set(callId!, Number(count));
  else if (kind === "finished") acknowledged.finished.set(callId!, Number(count));
  return kind;
}

/**
 * Runs one writer; with `killAfterMs`, SIGKILLs it that long after its first
 * acknowledged write (so the kill lands mid-run at a different place each
 * time). Resolves once its output is fully read.
 */
async function runWriter(args: string[], acknowledged: Acknowledged, killAfterMs?: number): Promise<{ done: boolean; lines: number }> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", writer, ...args], {
    cwd: repositoryRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffered = "";
  let errors = "";
  let lines = 0;
  let done = false;
  let timer: NodeJS.Timeout | undefined;
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    errors += chunk;
  });
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split("\n");
    buffered = complete.pop()!;
    for (const line of complete) {
      const kind = acknowledge(acknowledged, line);
      if (kind === "done") done = true;
      if (kind !== "ready") lines += 1;
      if (kind !== "ready" && killAfterMs !== undefined && timer === undefined) timer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
    }
  });
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearTimeout(timer);
  if (signal === null && code !== 0) throw new Error(`the writer exited ${code}: ${errors}`);
  return { done, lines };
}

/** Every entry is in one valid state with the writer's identity; every acknowledged write is there; at most one unacknowledged write per call. */
async function checkLedger(ledger: CallLedger, runId: string, acknowledged: Acknowledged): Promise<void> {
  const entries = new Map((await ledger.list(runId, { limit: CALLS + 1 })).map((entry) => [entry.callId, entry]));
  for (const entry of entries.values()) {
    expect(isConsistentEntry(entry), JSON.stringify(entry)).toBe(true);
    const index = Number(entry.callId.slice(1));
    expect(entry).toMatchObject(writerCall(runId, index));
  }
  for (const callId of acknowledged.approved) expect(entries.get(callId)?.approved, `approve of ${callId}`).toBe(true);
  for (const [callId, attempts] of acknowledged.started) {
    const entry = entries.get(callId);
    expect(entry, `start of ${callId}`).toBeDefined();
    // The acknowledged start is there; a later start of the same call may have landed unacknowledged, never two.
    expect(entry!.attempts).toBeGreaterThanOrEqual(attempts);
    expect(entry!.attempts).toBeLessThanOrEqual(attempts + 1);
  }
  for (const [callId, attempt] of acknowledged.finished) {
    const entry = entries.get(callId)!;
    expect(["completed", "failed"], `outcome of ${callId}`).toContain(entry.state);
    expect(entry.attempts).toBe(attempt);
    expect(entry.result?.content).toEqual([{ type: "text", text: writerResultText(callId, attempt) }]);
  }
}

async function killAndResume(kills: number, open: () => Promise<Storage>, location: [string, string]): Promise<{ midRun: number; restarts: number }> {
  const runId = `crash-${process.pid}-${Date.now()}`;
  const acknowledged: Acknowledged = { approved: new Set(), started: new Map(), finished: new Map() };
  const args = [...location, runId, String(CALLS)];
  let midRun = 0;
  for (let kill = 0; kill < kills; kill += 1) {
    const { done } = await runWriter(args, acknowledged, Math.floor(Math.random() * 25));
    if (!done) midRun += 1;
    const storage = await open();
    try {
      await checkLedger(await KyselyCallLedger.open(storage), runId, acknowledged);
    } finally {
      await storage.close();
    }
  }
  // A last writer (here, in this process: a process start costs seconds on a loaded machine) resumes what the kills left and finishes the run.
  const storage = await open();
  try {
    const ledger = await KyselyCallLedger.open(storage);
    await writeRun(ledger, runId, CALLS, (line) => acknowledge(acknowledged, line));
    await checkLedger(ledger, runId, acknowledged);
    const entries = await ledger.list(runId, { limit: CALLS + 1 });
    expect(entries).toHaveLength(CALLS);
    expect(entries.every((entry) => entry.state === "completed" || entry.state === "failed")).toBe(true);
    return { midRun, restarts: entries.filter((entry) => entry.attempts > 1).length };
  } finally {
    await storage.close();
  }
}

describe("a ledger writer killed with SIGKILL", () => {
  it("loses no acknowledged write and leaves every entry in one valid state on SQLite (3 kills)", async () => {
    const dataDir = path.join(temporary, "sqlite");
    const { midRun, restarts } = await killAndResume(3, () => openSqliteStorage({ dataDir }), ["sqlite", dataDir]);
    // The kills landed inside runs (not all after the writer was done).
    expect(midRun).toBeGreaterThanOrEqual(2);
    console.info(`SQLite: ${midRun} of 3 kills mid-run; ${restarts} calls restarted after a kill`);
  }, 120_000);

  it("loses no acknowledged write on PostgreSQL (1 kill)", async () => {
    const url = await cluster().createDatabase("ledger_crash");
    const { midRun } = await killAndResume(1, () => openPostgresStorage({ connectionString: url }), ["postgres", url]);
    expect(midRun).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
