import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SdkError } from "@agent-tools/core";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryCronStore } from "../ports/in-memory-cron-store.js";
import { runCronStoreContract } from "../testing/cron-store-contract.js";
import { CRON_STORAGE_MIGRATIONS, CRON_STORAGE_NAMESPACE } from "./cron-migrations.js";
import { acquireSqliteSchedulerLock } from "./cron-scheduler-lock.js";
import { KyselyCronStore } from "./kysely-cron-store.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-store-"));
let cluster: PostgresTestCluster | undefined;
let counter = 0;

beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
}, 60_000);

runCronStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryCronStore(), close: async () => undefined }) });

// A fresh data directory per test: one SQLite storage per file and process.
runCronStoreContract({
  name: "Kysely on SQLite",
  async open() {
    counter += 1;
    const storage = await openSqliteStorage({ dataDir: path.join(temporary, `sqlite-${counter}`) });
    const store = await KyselyCronStore.open(storage);
    return { store, close: () => storage.close() };
  },
});

async function postgresDatabase(): Promise<string> {
  if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
  return cluster.createDatabase("cron");
}

// A fresh database per test; the races use three pools over one database, so the claims really run at once on the server.
runCronStoreContract({
  name: "Kysely on PostgreSQL (real server)",
  async open() {
    const storage = await openPostgresStorage({ connectionString: await postgresDatabase() });
    const store = await KyselyCronStore.open(storage);
    return { store, close: () => storage.close() };
  },
  async openMany(count) {
    const url = await postgresDatabase();
    const storages: Storage[] = [];
    for (let index = 0; index < count; index += 1) storages.push(await openPostgresStorage({ connectionString: url }));
    const stores = [];
    for (const storage of storages) stores.push(await KyselyCronStore.open(storage));
    return { stores, close: async () => void (await Promise.all(storages.map((storage) => storage.close()))) };
  },
});

describe("KyselyCronStore", () => {
  it("migrates once in the cron namespace, and close() leaves the storage open", async () => {
    const storage = await openSqliteStorage({ filename: ":memory:" });
    try {
      const store = await KyselyCronStore.open(storage);
      expect((await storage.migrate(CRON_STORAGE_NAMESPACE, CRON_STORAGE_MIGRATIONS)).applied).toEqual([]);
      const again = await KyselyCronStore.open(storage);
      await store.close();
      expect(storage.closed).toBe(false);
      expect((await again.tasksFingerprint()).count).toBe(0);
    } finally {
      await storage.close();
    }
  });

  it("keeps tasks and runs across a reopen of the SQLite file", async () => {
    const dataDir = path.join(temporary, "reopen");
    const first = await openSqliteStorage({ dataDir });
    const store = await KyselyCronStore.open(first);
    const task = await store.createTask(
      { name: "t", description: "", cron: "* * * * * *", enabled: true, remainingExecutions: 3, timeoutSeconds: 5, type: "bash", script: "true" },
      1,
    );
    const run = await store.claimOccurrence({ taskId: task.id, scheduledAt: 1_000, owner: "a", now: 2, leaseMs: 10 });
    await first.close();
    const second = await openSqliteStorage({ dataDir });
    try {
      const reopened = await KyselyCronStore.open(second);
      expect(await reopened.getTask(task.id)).toEqual({ ...task, remainingExecutions: 2, version: 2, updatedAt: 2 });
      expect(await reopened.getRun(run!.id)).toEqual(run);
      expect(await reopened.claimOccurrence({ taskId: task.id, scheduledAt: 1_000, owner: "b", now: 3, leaseMs: 10 })).toBeUndefined();
    } finally {
      await second.close();
    }
  });
});
