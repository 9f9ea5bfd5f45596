import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, detailsOf } from "./__fixtures__/harness.js";
import { PROCESS_LOG_MAX_AGE_MS, pruneProcessLogs } from "./process-log-pruning.js";

const DAY_MS = 24 * 60 * 60 * 1_000;
let harness: ReturnType<typeof createHarness> | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

/** Writes a finished entry (`<id>.json` + `<id>.log`, pid of no process) last written `ageMs` ago. */
function writeEntry(directory: string, ageMs: number, pid = 2 ** 22 + 12_345): string {
  mkdirSync(directory, { recursive: true });
  const id = randomUUID();
  const logPath = path.join(directory, `${id}.log`);
  const record = {
    process_id: id,
    pid,
    command: "echo old",
    cwd: directory,
    isolated: true,
    started_at: new Date(Date.now() - ageMs).toISOString(),
    log_path: logPath,
  };
  writeFileSync(path.join(directory, `${id}.json`), JSON.stringify(record));
  writeFileSync(logPath, "old output\n");
  const when = new Date(Date.now() - ageMs);
  utimesSync(path.join(directory, `${id}.json`), when, when);
  utimesSync(logPath, when, when);
  return id;
}

const ids = (directory: string) => [...new Set(readdirSync(directory).map((name) => name.replace(/\.(json|log)$/, "")))].sort();

describe("process-logs pruning", () => {
  it("removes finished entries older than the age limit and keeps the newest up to the count", () => {
    harness = createHarness();
    const directory = path.join(harness.dataDir, "process-logs");
    const ancient = writeEntry(directory, PROCESS_LOG_MAX_AGE_MS + DAY_MS);
    const recent = [3, 2, 1].map((days) => writeEntry(directory, days * DAY_MS));
    writeFileSync(path.join(directory, "notes.txt"), "not ours");
    const removed = pruneProcessLogs(directory, { maxEntries: 2 }, () => false);
    expect(removed.sort()).toEqual([ancient, recent[0]!].sort());
    expect(ids(directory)).toEqual([...recent.slice(1), "notes.txt"].sort());
  });

  it("never removes a running process's entry, however old", () => {
    harness = createHarness();
    const directory = path.join(harness.dataDir, "process-logs");
    const running = writeEntry(directory, 90 * DAY_MS);
    const finished = writeEntry(directory, 90 * DAY_MS);
    expect(pruneProcessLogs(directory, { maxEntries: 0 }, (id) => id === running)).toEqual([finished]);
    expect(ids(directory)).toEqual([running]);
  });

  it("removes an orphan log without its record by the same rules; a missing directory is no error", () => {
    harness = createHarness();
    const directory = path.join(harness.dataDir, "process-logs");
    const orphan = writeEntry(directory, 40 * DAY_MS);
    writeFileSync(path.join(directory, `${orphan}.json`), "{ not json");
    utimesSync(path.join(directory, `${orphan}.json`), new Date(Date.now() - 40 * DAY_MS), new Date(Date.now() - 40 * DAY_MS));
    expect(pruneProcessLogs(directory, {}, () => false)).toEqual([orphan]);
    expect(pruneProcessLogs(path.join(harness.dataDir, "missing"), {}, () => false)).toEqual([]);
  });

  it("the bundle prunes on its first ManagedProcess call and after a process ends, keeping the running one", async () => {
    harness = createHarness("chat", { processLogRetention: { maxEntries: 1 } });
    const directory = path.join(harness.dataDir, "process-logs");
    const old = writeEntry(directory, 45 * DAY_MS);
    const older = writeEntry(directory, 2 * DAY_MS);
    const newer = writeEntry(directory, DAY_MS);
    const running = await harness.call("ManagedProcess", { action: "start", command: "exec tail -f /dev/null" });
    const runningId = detailsOf(running).process.process_id as string;
    // First use: the 45-day entry is past the age limit, and only the newest finished one fits the count.
    expect(existsSync(path.join(directory, `${old}.json`))).toBe(false);
    expect(existsSync(path.join(directory, `${older}.log`))).toBe(false);
    expect(ids(directory)).toEqual([newer, runningId].sort());
    // Make the running entry look ancient: it still stays.
    const ancient = new Date(Date.now() - 90 * DAY_MS);
    utimesSync(path.join(directory, `${runningId}.json`), ancient, ancient);
    utimesSync(path.join(directory, `${runningId}.log`), ancient, ancient);
    const quick = await harness.call("ManagedProcess", { action: "start", command: "echo done" });
    const quickId = detailsOf(quick).process.process_id as string;
    await harness.call("ManagedProcess", { action: "wait", process_id: quickId });
    // After the quick process ended, it is the newest finished entry; the running one is untouched.
    await expect.poll(() => ids(directory)).toEqual([quickId, runningId].sort());
  });
});
