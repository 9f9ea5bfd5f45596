import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { runMemoryIndexStoreContract } from "../testing/memory-index-store-contract.js";
import { KyselyMemoryIndexStore } from "./kysely-memory-index-store.js";
import { SQLITE_MEMORY_FTS_TABLE, SQLITE_MEMORY_TRIGRAM_TABLE } from "./sqlite-memory-text-index.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-memory-index-"));
let cluster: PostgresTestCluster | undefined;
let postgresUrl: Promise<string> | undefined;
let sqlite: Promise<Storage> | undefined;
const storages = new Map<MemoryIndexStore, Storage>();

beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(async () => {
  await (await sqlite)?.close();
  await cluster?.stop();
  fs.rmSync(temporary, { recursive: true, force: true });
}, 60_000);

runMemoryIndexStoreContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });

const shared = new InMemoryMemoryIndexStore();
runMemoryIndexStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });

// One SQLite storage per file and process (as leaseSqliteStorage hands out): every store shares its connection.
runMemoryIndexStoreContract("Kysely on SQLite", {
  open: async () => KyselyMemoryIndexStore.open(await (sqlite ??= openSqliteStorage({ dataDir: temporary }))),
  sharedBackend: true,
});

// A pool per store over one database: the racing batches really run at once on the server.
runMemoryIndexStoreContract("Kysely on PostgreSQL (real server)", {
  async open() {
    if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
    const storage = await openPostgresStorage({ connectionString: await (postgresUrl ??= cluster.createDatabase("memory")) });
    const store = await KyselyMemoryIndexStore.open(storage);
    storages.set(store, storage);
    return store;
  },
  async dispose(store) {
    await store.close?.();
    await storages.get(store)?.close();
    storages.delete(store);
  },
  sharedBackend: true,
});

describe("Kysely on SQLite: the FTS5 tables", () => {
  it("hold exactly one row per meta row after every write, delete and failed batch", async () => {
    const storage = await openSqliteStorage({ filename: ":memory:" });
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      const record = (slug: string, updatedAt: number): MemoryRecord => ({
        scope: "global",
        workdirHash: "",
        slug,
        type: "project",
        description: slug,
        body: `body of ${slug}`,
        unreviewed: false,
        riskFlags: [],
        source: { confidence: "low" },
        links: {},
        appendCount: 0,
        archived: false,
        bodyHash: "h",
        fileMtimeMs: 1,
        fileSize: 1,
        createdAt: 1,
        updatedAt,
      });
      const counts = async () => {
        const count = async (table: string) =>
          Number((await sql<{ total: number }>`select count(*) as total from ${sql.table(table)}`.execute(storage.db)).rows[0]?.total);
        return [await count("memory_meta"), await count(SQLITE_MEMORY_FTS_TABLE), await count(SQLITE_MEMORY_TRIGRAM_TABLE)];
      };
      await store.applyBatch(
        ["one", "two", "three"].map((slug) => ({ kind: "upsert", record: record(slug, 1) })),
        [],
      );
      expect(await counts()).toEqual([3, 3, 3]);
      await store.applyBatch([{ kind: "upsert", record: record("two", 2) }], []);
      expect(await counts()).toEqual([3, 3, 3]);
      await store.applyBatch([{ kind: "delete", key: { scope: "global", workdirHash: "", slug: "three" } }], []);
      expect(await counts()).toEqual([2, 2, 2]);
      const failed = await store.applyBatch(
        [
          { kind: "upsert", record: record("four", 1) },
          { kind: "delete", key: { scope: "global", workdirHash: "", slug: "one" } },
          { kind: "upsert", record: record("two", 3), expectedUpdatedAt: 1 },
        ],
        [],
      );
      expect(failed.ok).toBe(false);
      expect(await counts()).toEqual([2, 2, 2]);
      // The FTS rows carry the meta ids.
      const orphans = await sql<{ total: number }>`select count(*) as total from ${sql.table(SQLITE_MEMORY_FTS_TABLE)} f
        where not exists (select 1 from memory_meta m where m.id = f.rowid)`.execute(storage.db);
      expect(Number(orphans.rows[0]?.total)).toBe(0);
    } finally {
      await storage.close();
    }
  });
});
