import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, beforeAll } from "vitest";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { runMemoryIndexCrossBackendContract } from "../testing/memory-index-cross-backend-contract.js";
import { KyselyMemoryIndexStore } from "./kysely-memory-index-store.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-cross-"));
let cluster: PostgresTestCluster | undefined;
const storages = new Map<MemoryIndexStore, Storage>();

beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
}, 60_000);

/** Keeps the storage beside the store, to close both. */
function remember(store: KyselyMemoryIndexStore, storage: Storage): MemoryIndexStore {
  storages.set(store, storage);
  return store;
}

async function dispose(store: MemoryIndexStore): Promise<void> {
  await storages.get(store)?.close();
  storages.delete(store);
}

// Every test opens empty stores: a fresh SQLite file and a fresh PostgreSQL database.
runMemoryIndexCrossBackendContract({
  SQLite: {
    async open() {
      const storage = await openSqliteStorage({ dataDir: fs.mkdtempSync(path.join(temporary, "sqlite-")) });
      return remember(await KyselyMemoryIndexStore.open(storage), storage);
    },
    dispose,
  },
  "in-memory": { open: async () => new InMemoryMemoryIndexStore() },
  PostgreSQL: {
    async open() {
      if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
      const storage = await openPostgresStorage({ connectionString: await cluster.createDatabase("memory_cross") });
      return remember(await KyselyMemoryIndexStore.open(storage), storage);
    },
    dispose,
  },
});
