import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SdkError } from "@agent-tools/core";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryCronStore } from "../ports/in-memory-cron-store.js";
import { runCronStoreContract } from "../testing/cron-store-contract.js";
import { CRON_STORAGE_MIGRATIONS, CRON_STORAGE_NAMESPACE } from "./cron-migrations.js";
import { acquireSqliteSchedulerLock } from "./cron-scheduler-lock.js";
import { KyselyCronStore } from "./kysely-cron-store.js";

const backends = createStoreTestBackends("agent-tools-cron-store-");
const temporary = backends.temporary;
let counter = 0;

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

runCronStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryCronStore(), close: async () => undefined }) });

// A fresh data directory per test: one SQLite storage per file and process. Once per driver of this Node.
for (const sqlite of backends.sqlite) {
  runCronStoreContract({
    name: `Kysely on ${sqlite.label}`,
    async open() {
      counter += 1;
      const storage = await sqlite.open({ dataDir: path.join(temporary, `sqlite-${counter}`) });
      const store = await KyselyCronStore.open(storage);
      return { store, close: () => storage.close() };
    },
  });
}

async function postgresDatabase(): Promise<string> {
  return backends.cluster().createDatabase("cron");
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

/** Starts two child processes that claim occurrences 0..count-1 of `taskId` on one SQLite file at once; returns what each won. */
async function raceChildren(filename: string, taskId: string, count: number): Promise<number[][]> {
  const child = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "cron-claim-race-child.ts");
  const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
  const children = [0, 1].map((index) => {
    const process_ = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", child, filename, taskId, String(count), `host-${index}`], {
      cwd: repositoryRoot,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let errors = "";
    process_.stdout.setEncoding("utf8");
    process_.stderr.setEncoding("utf8");
    process_.stderr.on("data", (chunk: string) => {
      errors += chunk;
    });
    const ready = new Promise<void>((resolve) => {
      process_.stdout.on("data", (chunk: string) => {
        output += chunk;
        if (output.includes("ready\n")) resolve();
      });
    });
    const done = new Promise<number[]>((resolve, reject) => {
      process_.on("exit", (code) =>
        code === 0
          ? resolve(JSON.parse(output.split("\n").filter(Boolean).at(-1) ?? "[]") as number[])
          : reject(new Error(`claimer ${index} exited ${code}: ${errors}`)),
      );
    });
    return { process_, ready, done };
  });
  await Promise.all(children.map((entry) => entry.ready));
  for (const entry of children) entry.process_.stdin.end("go\n");
  return Promise.all(children.map((entry) => entry.done));
}

describe("Kysely on SQLite: two processes claiming the same occurrences of one file", () => {
  it("claim each occurrence exactly once and decrement the count exactly once per claim", async () => {
    const filename = path.join(temporary, "claim-race.sqlite");
    const setup = await openSqliteStorage({ filename });
    const store = await KyselyCronStore.open(setup);
    const unlimited = await store.createTask(
      { name: "u", description: "", cron: "* * * * * *", enabled: true, remainingExecutions: 1_000, timeoutSeconds: 5, type: "bash", script: "true" },
      1,
    );
    const limited = await store.createTask(
      { name: "l", description: "", cron: "* * * * * *", enabled: true, remainingExecutions: 60, timeoutSeconds: 5, type: "bash", script: "true" },
      1,
    );
    await setup.close();

    const [first, second] = await raceChildren(filename, unlimited.id, 150);
    expect([...first!, ...second!].sort((left, right) => left - right)).toEqual(Array.from({ length: 150 }, (_, index) => index));
    const [third, fourth] = await raceChildren(filename, limited.id, 150);
    expect(third!.length + fourth!.length).toBe(60);
    expect(new Set([...third!, ...fourth!]).size).toBe(60);

    const check = await openSqliteStorage({ filename });
    try {
      const reopened = await KyselyCronStore.open(check);
      expect((await reopened.listRuns(unlimited.id)).map((run) => run.scheduledAt).sort((left, right) => left - right)).toEqual(
        Array.from({ length: 150 }, (_, index) => index),
      );
      expect((await reopened.getTask(unlimited.id))?.remainingExecutions).toBe(850);
      expect(await reopened.listRuns(limited.id)).toHaveLength(60);
      expect((await reopened.getTask(limited.id))?.remainingExecutions).toBe(0);
    } finally {
      await check.close();
    }
  }, 120_000);
});

describe("acquireSqliteSchedulerLock", () => {
  it("lets one scheduler run per database: a second is refused naming the holder until the holder's heartbeat is stale", async () => {
    const storage = await openSqliteStorage({ dataDir: path.join(temporary, "lock") });
    try {
      const lock = await acquireSqliteSchedulerLock(storage, "host-a", { now: 1_000_000, staleMs: 60_000 });
      expect(lock.owner).toBe("host-a");
      const refused = await acquireSqliteSchedulerLock(storage, "host-b", { now: 1_030_000, staleMs: 60_000 }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SdkError);
      expect((refused as SdkError).code).toBe("unsupported");
      expect((refused as SdkError).message).toContain('"host-a"');
      expect((refused as SdkError).message).toContain(new Date(1_000_000).toISOString());
      expect((refused as SdkError).message).toContain("30000 ms ago");
      expect((refused as SdkError).message).toContain("PostgreSQL");
      expect((refused as SdkError).details).toMatchObject({ holder: "host-a", heartbeatAt: 1_000_000, staleMs: 60_000 });

      // A heartbeat keeps it: 50 s after the heartbeat host-b is still refused.
      expect(await lock.heartbeat(1_040_000)).toBe(true);
      await expect(acquireSqliteSchedulerLock(storage, "host-b", { now: 1_090_000, staleMs: 60_000 })).rejects.toThrow(/host-a/);
      // The same owner may take it again (a restart under the same name).
      const restarted = await acquireSqliteSchedulerLock(storage, "host-a", { now: 1_091_000, staleMs: 60_000 });
      expect(await restarted.heartbeat(1_092_000)).toBe(true);

      // Silent past staleMs: taken over; the old holder's heartbeat then reports the loss, and its release leaves the new lock alone.
      const takenOver = await acquireSqliteSchedulerLock(storage, "host-b", { now: 1_152_001, staleMs: 60_000 });
      expect(await lock.heartbeat(1_152_002)).toBe(false);
      await lock.release();
      await expect(acquireSqliteSchedulerLock(storage, "host-c", { now: 1_153_000, staleMs: 60_000 })).rejects.toThrow(/host-b/);

      // Released: the next scheduler gets it at once; heartbeats after release report false.
      await takenOver.release();
      await takenOver.release();
      expect(await takenOver.heartbeat(1_154_000)).toBe(false);
      const next = await acquireSqliteSchedulerLock(storage, "host-c", { now: 1_154_000, staleMs: 60_000 });
      expect(next.owner).toBe("host-c");
    } finally {
      await storage.close();
    }
  });

  it("holds across processes' connections: a second storage on the file is refused while the first holds it", async () => {
    const dataDir = path.join(temporary, "lock-two");
    const first = await openSqliteStorage({ dataDir });
    const second = await openSqliteStorage({ dataDir });
    try {
      let clock = 5_000_000;
      const lock = await acquireSqliteSchedulerLock(first, "host-a", { now: () => clock });
      clock += 10_000;
      expect(await lock.heartbeat()).toBe(true);
      await expect(acquireSqliteSchedulerLock(second, "host-b", { now: clock + 1_000 })).rejects.toBeInstanceOf(SdkError);
      await lock.release();
      expect((await acquireSqliteSchedulerLock(second, "host-b", { now: clock + 2_000 })).owner).toBe("host-b");
    } finally {
      await first.close();
      await second.close();
    }
  });
});
