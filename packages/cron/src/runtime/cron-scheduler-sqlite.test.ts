import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ExecaProcessRunner } from "@agent-tools/node";
import { type Storage, openSqliteStorage } from "@agent-tools/storage";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireSqliteSchedulerLock } from "../stores/cron-scheduler-lock.js";
import { KyselyCronStore } from "../stores/kysely-cron-store.js";
import { T0, newTask, startHarness } from "./__fixtures__/scheduler-harness.js";
import { ManualCronClock } from "./cron-clock.js";
import { startCronScheduler } from "./cron-scheduler.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-sqlite-"));
const processRunner = new ExecaProcessRunner();
let storage: Storage;
beforeAll(async () => {
  storage = await openSqliteStorage({ dataDir: temporary });
});
afterAll(async () => {
  await storage.close();
  await processRunner.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

describe("startCronScheduler on SQLite", () => {
  it("runs tasks on the Kysely store, and a second scheduler on the same database refuses to start until the first stops", async () => {
    const store = await KyselyCronStore.open(storage);
    const clock = new ManualCronClock(T0);
    const lockFor = (owner: string) => () => acquireSqliteSchedulerLock(storage, owner, { now: () => clock.now(), staleMs: 60_000 });
    const first = await startHarness(processRunner, { store, clock, storageDialect: "sqlite", sqliteLock: lockFor("host-a"), owner: "host-a" });
    const task = await store.createTask(newTask({ type: "bash", script: "echo from sqlite", workdir: temporary, cron: "*/2 * * * * *" }), clock.now());
    await first.advance(4_000);
    const runs = await store.listRuns(task.id);
    expect(runs.map((run) => [run.scheduledAt, run.output, run.success])).toEqual([
      [T0 + 4_000, "from sqlite\n", true],
      [T0 + 2_000, "from sqlite\n", true],
    ]);

    await expect(startCronScheduler({ store, storageDialect: "sqlite", sqliteLock: lockFor("host-b"), processRunner, clock })).rejects.toThrow(/host-a/);

    await first.scheduler.stop();
    const second = await startCronScheduler({ store, storageDialect: "sqlite", sqliteLock: lockFor("host-b"), processRunner, clock, tickMs: 3_600_000 });
    await second.stop();
  });

  it("refuses to start on SQLite without a lock", async () => {
    const store = await KyselyCronStore.open(storage);
    await expect(startCronScheduler({ store, storageDialect: "sqlite", processRunner })).rejects.toThrow(/needs `sqliteLock`/);
  });

  it("stops firing when another scheduler took the lock over", async () => {
    const store = await KyselyCronStore.open(storage);
    const clock = new ManualCronClock(T0 + 100_000_000);
    const h = await startHarness(processRunner, {
      store,
      clock,
      storageDialect: "sqlite",
      sqliteLock: () => acquireSqliteSchedulerLock(storage, "slow-host", { now: () => clock.now(), staleMs: 5_000 }),
      owner: "slow-host",
    });
    const task = await store.createTask(newTask({ type: "bash", script: "true", workdir: temporary }), clock.now());
    // Ten seconds without a heartbeat: another host sees a stale holder and takes the lock.
    await clock.advance(10_000);
    const thief = await acquireSqliteSchedulerLock(storage, "other-host", { now: () => clock.now(), staleMs: 5_000 });
    await h.advance(3_000);
    expect(h.events.some((event) => event.type === "error" && event.message.includes("took over the SQLite scheduler lock"))).toBe(true);
    const before = (await store.listRuns(task.id, { limit: 500 })).length;
    await h.advance(3_000);
    expect((await store.listRuns(task.id, { limit: 500 })).length).toBe(before);
    await h.scheduler.stop();
    await thief.release();
  });
});
