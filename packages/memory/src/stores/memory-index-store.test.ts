import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";
import { runMemoryIndexStoreContract } from "../testing/memory-index-store-contract.js";
import { KyselyMemoryIndexStore } from "./kysely-memory-index-store.js";
import { SQLITE_MEMORY_FTS_TABLE, SQLITE_MEMORY_TRIGRAM_TABLE } from "./sqlite-memory-text-index.js";

const backends = createStoreTestBackends("agent-tools-memory-index-");
const temporary = backends.temporary;

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

runMemoryIndexStoreContract("in-memory", { open: async () => new InMemoryMemoryIndexStore() });

const shared = new InMemoryMemoryIndexStore();
runMemoryIndexStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });

// One SQLite storage per file and process (as leaseSqliteStorage hands out): every store shares its connection. Once per driver of this Node.
for (const sqlite of backends.sqlite) {
  runMemoryIndexStoreContract(`Kysely on ${sqlite.label}`, {
    open: async () => KyselyMemoryIndexStore.open(await sqlite.sharedSqlite()),
    sharedBackend: true,
  });
}

// A pool per store over one database: the racing batches really run at once on the server.
runMemoryIndexStoreContract("Kysely on PostgreSQL (real server)", {
  ...backends.postgresStores("memory", (storage) => KyselyMemoryIndexStore.open(storage)),
  sharedBackend: true,
});

/** A global project entry with the given slug (description = slug), every other field fixed. */
function globalRecord(slug: string, overrides: Partial<MemoryRecord> = {}): MemoryRecord {
  return memoryRecord({ slug, bodyHash: "h", ...overrides });
}

describe("Kysely on SQLite: the FTS5 tables", () => {
  it("hold exactly one row per meta row after every write, delete and failed batch", async () => {
    const storage = await openSqliteStorage({ filename: ":memory:" });
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      const record = (slug: string, updatedAt: number) => globalRecord(slug, { updatedAt });
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

describe("Kysely on SQLite: two processes racing on one file", () => {
  it("let exactly one process create each key, with meta, text indexes and audit agreeing", async () => {
    const filename = path.join(temporary, "race.sqlite");
    const keys = 60;
    const child = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "memory-index-race-child.ts");
    const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
    // Migrate once up front, so the race is about the writes.
    const setup = await openSqliteStorage({ filename });
    await KyselyMemoryIndexStore.open(setup);
    await setup.close();
    const writers = [0, 1].map((writer) => {
      const process_ = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", child, filename, String(keys), String(writer)], {
        cwd: repositoryRoot,
        stdio: ["pipe", "pipe", "inherit"],
      });
      let output = "";
      process_.stdout.setEncoding("utf8");
      const ready = new Promise<void>((resolve) => {
        process_.stdout.on("data", (chunk: string) => {
          output += chunk;
          if (output.includes("ready\n")) resolve();
        });
      });
      const done = new Promise<boolean[]>((resolve, reject) => {
        process_.on("exit", (code) =>
          code === 0
            ? resolve(JSON.parse(output.split("\n").filter(Boolean).at(-1) ?? "[]") as boolean[])
            : reject(new Error(`writer ${writer} exited ${code}`)),
        );
      });
      return { process_, ready, done };
    });
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.process_.stdin.end("go\n");
    const [first, second] = await Promise.all(writers.map((writer) => writer.done));
    expect(first).toHaveLength(keys);
    expect(second).toHaveLength(keys);
    for (let index = 0; index < keys; index += 1) expect([first![index], second![index]].filter(Boolean), `key ${index}`).toHaveLength(1);

    const storage = await openSqliteStorage({ filename });
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      for (let index = 0; index < keys; index += 1) {
        const winner = first![index] ? 0 : 1;
        const record = await store.get({ scope: "global", workdirHash: "", slug: `race-${index}` });
        expect(record?.updatedAt).toBe(1000 + winner);
        expect((await store.audit({ slug: `race-${index}` })).map((entry) => entry.detail)).toEqual([{ writer: winner }]);
      }
      const hits = await store.search({ scopes: [{ scope: "global", workdirHash: "" }], index: "words", terms: ["writer0", "writer1"], limit: 32 });
      expect(hits.length).toBe(Math.min(32, keys));
      const count = async (table: string) =>
        Number((await sql<{ total: number }>`select count(*) as total from ${sql.table(table)}`.execute(storage.db)).rows[0]?.total);
      expect([await count("memory_meta"), await count(SQLITE_MEMORY_FTS_TABLE), await count(SQLITE_MEMORY_TRIGRAM_TABLE)]).toEqual([keys, keys, keys]);
    } finally {
      await storage.close();
    }
  });
});

describe("Kysely on PostgreSQL: index upkeep", () => {
  it("keeps no GIN pending list, and vacuums the statistics tables after a bulk batch", async () => {
    const storage = await openPostgresStorage({ connectionString: await backends.cluster().createDatabase("memory_upkeep") });
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      const { rows: options } = await sql<{ relname: string; reloptions: string[] | null }>`select relname, reloptions from pg_class
        where relname in ('memory_meta_search_words', 'memory_meta_search_text_trgm') order by relname`.execute(storage.db);
      expect(options).toEqual([
        { relname: "memory_meta_search_text_trgm", reloptions: ["fastupdate=off"] },
        { relname: "memory_meta_search_words", reloptions: ["fastupdate=off"] },
      ]);
      const vacuums = async () => {
        const { rows } = await sql<{ count: string | number }>`select vacuum_count as count from pg_stat_user_tables
          where relname = 'memory_text_terms'`.execute(storage.db);
        return Number(rows[0]?.count ?? 0);
      };
      const before = await vacuums();
      const records = Array.from({ length: 600 }, (_, index) =>
        globalRecord(`bulk-${index}`, { description: `bulk entry ${index}`, body: `word${index % 50} shared body text` }),
      );
      expect(
        await store.applyBatch(
          records.slice(0, 300).map((record) => ({ kind: "upsert" as const, record })),
          [],
        ),
      ).toEqual({ ok: true });
      expect(await vacuums()).toBe(before); // 300 rows changed: not yet
      expect(
        await store.applyBatch(
          records.slice(300).map((record) => ({ kind: "upsert" as const, record })),
          [],
        ),
      ).toEqual({ ok: true });
      expect(await vacuums()).toBe(before + 1);
      const hits = await store.search({ scopes: [{ scope: "global", workdirHash: "" }], index: "words", terms: ["word7"], limit: 50 });
      expect(hits.map((hit) => hit.record.slug).sort()).toEqual(
        records
          .filter((_, index) => index % 50 === 7)
          .map((record) => record.slug)
          .sort(),
      );
    } finally {
      await storage.close();
    }
  }, 60_000);
});
