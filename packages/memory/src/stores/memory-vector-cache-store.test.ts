/**
 * The database stores keep decoded vectors between searches: proved by
 * changing a stored vector behind the store's back (plain SQL, which moves
 * no scope version) and watching when a search sees it.
 */
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";
import { expectInvalid } from "../testing/memory-vector-contract-helpers.js";
import { KyselyMemoryIndexStore, type KyselyMemoryIndexStoreOptions } from "./kysely-memory-index-store.js";

let cluster: PostgresTestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(() => cluster?.stop(), 60_000);

const MODEL = "test:cache@2";
const A: MemoryScopeRef = { scope: "project", workdirHash: "aaaa000000000000" };
const B: MemoryScopeRef = { scope: "project", workdirHash: "bbbb000000000000" };
const X = Float32Array.from([1, 0]);
const Y = Float32Array.from([0, 1]);

/** Rewrites a stored vector with plain SQL: no store call, so no scope version moves. */
async function rewriteBehindTheStore(storage: Storage, scope: MemoryScopeRef, vector: Float32Array): Promise<void> {
  await sql`update memory_vectors set vector = ${Buffer.from(vector.buffer)} where workdir_hash = ${scope.workdirHash}`.execute(storage.db);
}

/** A store over `storage` with one entry and its vector (along X) in each of A and B. */
async function seeded(storage: Storage, options: KyselyMemoryIndexStoreOptions = {}): Promise<KyselyMemoryIndexStore> {
  const store = await KyselyMemoryIndexStore.open(storage, options);
  const records = [A, B].map((scope) => memoryRecord({ ...scope, slug: `entry-${scope.workdirHash.slice(0, 4)}` }));
  expect(
    await store.applyBatch(
      records.map((record) => ({ kind: "upsert" as const, record })),
      [],
    ),
  ).toEqual({ ok: true });
  expect(await store.putVectors(records.map((record) => ({ key: record, modelId: MODEL, bodyHash: record.bodyHash, vector: X })))).toEqual({ stored: 2 });
  return store;
}

/** The similarity of each scope's entry to X, scope by scope. */
async function similarities(store: KyselyMemoryIndexStore): Promise<number[]> {
  const answers = [];
  for (const scope of [A, B]) {
    const hits = await store.searchVectors({ scopes: [scope], modelId: MODEL, vector: X, limit: 4 });
    answers.push(hits[0]?.similarity ?? Number.NaN);
  }
  return answers;
}

const backends: [string, (name: string) => Promise<Storage>][] = [
  ["SQLite", () => openSqliteStorage({ filename: ":memory:" })],
  [
    "PostgreSQL",
    async (name) => {
      if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
      return openPostgresStorage({ connectionString: await cluster.createDatabase(name) });
    },
  ],
];

describe.each(backends)("Kysely on %s: the decoded-vector cache", (_label, openStorage) => {
  it("answers from the vectors it read until a store write moves the scope's version, and reads only that scope again", async () => {
    const storage = await openStorage("memory_cache_versions");
    try {
      const store = await seeded(storage);
      expect(await similarities(store)).toEqual([1, 1]);
      await rewriteBehindTheStore(storage, A, Y);
      await rewriteBehindTheStore(storage, B, Y);
      expect(await similarities(store)).toEqual([1, 1]);
      // A write in scope A, through another store instance: A is read again, B is not.
      const other = await KyselyMemoryIndexStore.open(storage);
      expect(await other.applyBatch([{ kind: "upsert", record: memoryRecord({ ...A, slug: "another-entry" }) }], [])).toEqual({ ok: true });
      expect(await similarities(store)).toEqual([0, 1]);
      await store.close();
      await other.close();
    } finally {
      await storage.close();
    }
  });

  it("reads the database on every search with vectorCacheBytes 0, and again for a scope its budget let go", async () => {
    const storage = await openStorage("memory_cache_budget");
    try {
      const uncached = await seeded(storage, { vectorCacheBytes: 0 });
      expect(await similarities(uncached)).toEqual([1, 1]);
      await rewriteBehindTheStore(storage, A, Y);
      expect(await similarities(uncached)).toEqual([0, 1]);
      await rewriteBehindTheStore(storage, A, X);
      // A budget of one scope's vectors: reading B lets A go, so A is read again.
      const small = await KyselyMemoryIndexStore.open(storage, { vectorCacheBytes: 250 });
      expect(await similarities(small)).toEqual([1, 1]);
      await rewriteBehindTheStore(storage, A, Y);
      await rewriteBehindTheStore(storage, B, Y);
      expect(await similarities(small)).toEqual([0, 0]);
    } finally {
      await storage.close();
    }
  });

  it("refuses an unknown option or an invalid budget before it touches the database", async () => {
    const storage = await openStorage("memory_cache_options");
    try {
      await expectInvalid(
        KyselyMemoryIndexStore.open(storage, { vectorCacheByte: 1 } as never),
        /no option "vectorCacheByte"; did you mean `vectorCacheBytes`\?/,
      );
      await expectInvalid(KyselyMemoryIndexStore.open(storage, { vectorCacheBytes: -1 }), /vectorCacheBytes must be a whole number/);
      await expectInvalid(KyselyMemoryIndexStore.open(storage, { vectorCacheBytes: "64" } as never), /vectorCacheBytes must be a whole number/);
      await expectInvalid(KyselyMemoryIndexStore.open(storage, null as never), /options must be an object/);
      const tables = await storage.db.introspection.getTables();
      expect(tables.map((table) => table.name)).not.toContain("memory_meta");
    } finally {
      await storage.close();
    }
  });
});
