import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { startPostgresTestCluster, type PostgresTestCluster } from "@agent-tools/storage/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";
import { KyselyMemoryIndexStore } from "./kysely-memory-index-store.js";

let cluster: PostgresTestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(() => cluster?.stop(), 60_000);

const PROJECT = { scope: "project" as const, workdirHash: "0123456789abcdef" };
const MODEL = "test:damaged@4";

function record(slug: string): MemoryRecord {
  return memoryRecord({ ...PROJECT, slug });
}

const bytes = (values: number[]) => Buffer.from(Float32Array.from(values).buffer);

/** Writes a damaged vector row past the table's check constraint, as a broken or hostile database holds it. */
async function damage(storage: Storage, slug: string, vector: Uint8Array, dimension = 4): Promise<void> {
  if (storage.dialect === "sqlite") await sql`pragma ignore_check_constraints = 1`.execute(storage.db);
  else await sql`alter table memory_vectors drop constraint if exists memory_vectors_length`.execute(storage.db);
  await sql`update memory_vectors set vector = ${vector}, dimension = ${dimension} where slug = ${slug}`.execute(storage.db);
  if (storage.dialect === "sqlite") await sql`pragma ignore_check_constraints = 0`.execute(storage.db);
}

const backends: [string, () => Promise<Storage>][] = [
  ["SQLite", () => openSqliteStorage({ filename: ":memory:" })],
  [
    "PostgreSQL",
    async () => {
      if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
      return openPostgresStorage({ connectionString: await cluster.createDatabase("memory_damaged") });
    },
  ],
];

describe.each(backends)("Kysely on %s: damaged vector rows", (_label, openStorage) => {
  it("are skipped with a reason while the sound rows answer; a truncated one is in the backlog again", async () => {
    const storage = await openStorage();
    try {
      const store = await KyselyMemoryIndexStore.open(storage);
      const slugs = ["sound-a", "sound-b", "truncated", "other-dimension", "not-a-number", "huge"];
      const records = slugs.map(record);
      expect(
        await store.applyBatch(
          records.map((entry) => ({ kind: "upsert" as const, record: entry })),
          [],
        ),
      ).toEqual({ ok: true });
      const rows = records.map((entry, index) => ({
        key: entry,
        modelId: MODEL,
        bodyHash: entry.bodyHash,
        vector: Float32Array.from([index === 0 ? 1 : 0, index === 0 ? 0 : 1, 0, 0]),
      }));
      expect(await store.putVectors(rows)).toEqual({ stored: slugs.length });
      await damage(storage, "truncated", bytes([1, 0, 0]));
      await damage(storage, "other-dimension", bytes([1, 0, 0]), 3);
      await damage(storage, "not-a-number", bytes([Number.NaN, 0, 0, 0]));
      await damage(storage, "huge", bytes([1e38, 0, 0, 0]));
      const hits = await store.searchVectors({ scopes: [PROJECT], modelId: MODEL, vector: Float32Array.from([1, 0, 0, 0]), limit: 10 });
      expect(hits.map((hit) => [hit.record.slug, hit.similarity])).toEqual([
        ["sound-a", 1],
        ["sound-b", 0],
      ]);
      expect([...(hits.skipped ?? [])].map((skip) => `${skip.key.slug}:${skip.reason}`).sort()).toEqual([
        "huge:invalid",
        "not-a-number:invalid",
        "other-dimension:dimension",
        "truncated:dimension",
      ]);
      // A row whose bytes do not match its dimension counts as missing: the runtime embeds it again.
      expect((await store.vectorBacklog({ modelId: MODEL, limit: 10 })).map((entry) => entry.slug)).toEqual(["truncated"]);
      await store.putVectors([{ ...rows[2]!, vector: Float32Array.from([0, 0, 1, 0]) }]);
      expect((await store.vectorBacklog({ modelId: MODEL, limit: 10 })).map((entry) => entry.slug)).toEqual([]);
      const healed = await store.searchVectors({ scopes: [PROJECT], modelId: MODEL, vector: Float32Array.from([0, 0, 1, 0]), limit: 1 });
      expect(healed.map((hit) => hit.record.slug)).toEqual(["truncated"]);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
