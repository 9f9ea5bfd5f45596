import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openPostgresStorage } from "../open-postgres-storage.js";
import { openSqliteStorage } from "../open-sqlite-storage.js";
import type { Storage } from "../storage.js";
import { type PostgresTestCluster, startPostgresTestCluster } from "./postgres-test-cluster.js";
import { type SqliteTestBackend, sqliteTestBackends } from "./sqlite-test-backends.js";

/** The backends a store's test file runs its contract suite on: a temp directory, one shared SQLite storage, a throwaway PostgreSQL. */
export interface StoreTestBackends {
  /** A temp directory, removed by `stop()`. */
  readonly temporary: string;
  /** Starts the PostgreSQL cluster (call it in `beforeAll`). */
  start(): Promise<void>;
  /** Closes the shared SQLite storage, stops the cluster and removes the temp directory (call it in `afterAll`). */
  stop(): Promise<void>;
  /** The running cluster; throws when `start()` did not run. */
  cluster(): PostgresTestCluster;
  /**
   * The SQLite drivers of the running Node (node:sqlite on Node 22.16+ and
   * 24, better-sqlite3 where it loads): run each contract suite once per
   * entry, named with its `label`. Their shared storages close with `stop()`.
   */
  readonly sqlite: readonly SqliteTestBackend[];
  /** One SQLite storage on `temporary` (the default driver), opened on first use and shared by every caller (as one process shares a file). */
  sharedSqlite(): Promise<Storage>;
  /**
   * Opens stores on one database of the cluster (created on first use), each
   * on a storage with its own pool, so racing stores really run at once on
   * the server; `dispose` closes the store and its storage.
   */
  postgresStores<S extends { close?(): Promise<void> }>(
    database: string,
    open: (storage: Storage) => Promise<S>,
  ): { open(): Promise<S>; dispose(store: S): Promise<void> };
}

/**
 * The usual backends of a store's test file, with no test runner imported:
 * the caller hooks `start` and `stop` into its runner.
 *
 * @example
 * const backends = createStoreTestBackends("agent-tools-cron-store-");
 * beforeAll(() => backends.start(), 120_000);
 * afterAll(() => backends.stop(), 60_000);
 * for (const sqlite of backends.sqlite) runContract(`Kysely on ${sqlite.label}`, { open: async () => KyselyCronStore.open(await sqlite.sharedSqlite()) });
 * runContract("Kysely on PostgreSQL", { ...backends.postgresStores("cron", (storage) => KyselyCronStore.open(storage)) });
 */
export function createStoreTestBackends(prefix: string): StoreTestBackends {
  const temporary = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const sqliteBackends = sqliteTestBackends(temporary);
  let running: PostgresTestCluster | undefined;
  let sqlite: Promise<Storage> | undefined;
  const databases = new Map<string, Promise<string>>();
  const cluster = (): PostgresTestCluster => {
    if (running === undefined) throw new Error("The PostgreSQL test cluster is not running.");
    return running;
  };
  return {
    temporary,
    sqlite: sqliteBackends,
    cluster,
    async start() {
      running = await startPostgresTestCluster();
    },
    async stop() {
      await (await sqlite)?.close();
      for (const backend of sqliteBackends) await backend.close();
      await running?.stop();
      fs.rmSync(temporary, { recursive: true, force: true });
    },
    sharedSqlite: () => (sqlite ??= openSqliteStorage({ dataDir: temporary })),
    postgresStores(database, open) {
      const storages = new Map<unknown, Storage>();
      return {
        async open() {
          let url = databases.get(database);
          if (url === undefined) {
            url = cluster().createDatabase(database);
            databases.set(database, url);
          }
          const storage = await openPostgresStorage({ connectionString: await url });
          const store = await open(storage);
          storages.set(store, storage);
          return store;
        },
        async dispose(store) {
          await store.close?.();
          await storages.get(store)?.close();
          storages.delete(store);
        },
      };
    },
  };
}
