// The index backends every tool test runs on.
import fs from "node:fs";
import path from "node:path";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll } from "vitest";
import { KyselyMemoryIndexStore } from "../../stores/kysely-memory-index-store.js";
import { type MemoryTestBackend, inMemoryBackend } from "./memory-registry.js";

/** SQLite through the Kysely store, in `<directory>/index.sqlite`; the store's close closes its storage too. */
export const sqliteBackend: MemoryTestBackend = {
  name: "sqlite",
  async open(directory) {
    const storage: Storage = await openSqliteStorage({ filename: path.join(directory, "index.sqlite") });
    const store = await KyselyMemoryIndexStore.open(storage);
    const close = store.close?.bind(store);
    store.close = async () => {
      await close?.();
      await storage.close();
    };
    return store;
  },
  async wipe(directory) {
    for (const name of fs.readdirSync(directory)) if (name.startsWith("index.sqlite")) fs.rmSync(path.join(directory, name));
  },
};

let cluster: Promise<PostgresTestCluster> | undefined;
const databases = new Map<string, string>();
afterAll(async () => {
  await (await cluster)?.stop();
}, 60_000);

/** A throwaway PostgreSQL server (started on first use), one database per index directory; wiping gives the directory a new one. */
export const postgresBackend: MemoryTestBackend = {
  name: "postgres",
  async open(directory) {
    cluster ??= startPostgresTestCluster();
    let url = databases.get(directory);
    if (url === undefined) {
      url = await (await cluster).createDatabase("memory_tool");
      databases.set(directory, url);
    }
    const storage = await openPostgresStorage({ connectionString: url, maxConnections: 2 });
    const store = await KyselyMemoryIndexStore.open(storage);
    const close = store.close?.bind(store);
    store.close = async () => {
      await close?.();
      await storage.close();
    };
    return store;
  },
  async wipe(directory) {
    databases.delete(directory);
  },
};

/** In-memory, SQLite and PostgreSQL (the last two through the Kysely store). */
export const MEMORY_TEST_BACKENDS: readonly MemoryTestBackend[] = [inMemoryBackend, sqliteBackend, postgresBackend];
