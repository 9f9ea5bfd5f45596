import { openPostgresStorage, openSqliteStorage, type Storage } from "@agent-tools/core";
import { usePostgresTestCluster } from "@agent-tools/core/testing";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
import { KyselyTaskStateStore } from "./kysely-task-state-store.js";
import { runTaskStateStoreContract } from "./testing/index.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-task-store-"));
const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;
const storages = new Map<unknown, Storage>();
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

async function kyselyStore(open: () => Promise<Storage>): Promise<KyselyTaskStateStore> {
  const storage = await open();
  const store = await KyselyTaskStateStore.open(storage);
  storages.set(store, storage);
  return store;
}
async function disposeKyselyStore(store: unknown): Promise<void> {
  await storages.get(store)?.close();
  storages.delete(store);
}

runTaskStateStoreContract("in-memory", { open: async () => new InMemoryTaskStateStore() });

const shared = new InMemoryTaskStateStore();
runTaskStateStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });

runTaskStateStoreContract("Kysely on SQLite", {
  open: () => kyselyStore(() => openSqliteStorage({ dataDir: temporary })),
  dispose: disposeKyselyStore,
  sharedBackend: true,
});

runTaskStateStoreContract("Kysely on PostgreSQL (real server)", {
  open: () => kyselyStore(async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("tasks")) })),
  dispose: disposeKyselyStore,
  sharedBackend: true,
});
