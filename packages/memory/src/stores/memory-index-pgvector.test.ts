/**
 * The pgvector path of KyselyMemoryIndexStore on a real PostgreSQL server
 * with the `vector` extension: the whole store contract (vectors included),
 * and a database that gets pgvector after its vectors were written (the
 * backfill) ranking exactly as the scan did. Skipped where the server has no
 * pgvector (Debian has no package; CI runs the scan path only).
 */
import fs from "node:fs";
import path from "node:path";
import { openPostgresStorage } from "@agent-tools/storage";
import { createStoreTestBackends, findPostgresBinDir } from "@agent-tools/storage/testing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryRecord } from "../domain/memory-types.js";
import { memoryRecord } from "../testing/memory-contract-fixtures.js";
import { runMemoryIndexStoreContract } from "../testing/memory-index-store-contract.js";
import { KyselyMemoryIndexStore } from "./kysely-memory-index-store.js";

/** Whether the server binaries the test cluster uses have pgvector's control file (Debian layout, or a prefix build). */
function pgvectorAvailable(): boolean {
  const binDir = findPostgresBinDir();
  if (binDir === undefined) return false;
  const version = path.basename(path.dirname(binDir));
  return [path.join("/usr/share/postgresql", version, "extension", "vector.control"), path.join(binDir, "..", "share", "extension", "vector.control")].some(
    (file) => fs.existsSync(file),
  );
}

const available = pgvectorAvailable();
const backends = createStoreTestBackends("agent-tools-memory-pgvector-");
beforeAll(() => (available ? backends.start() : undefined), 120_000);
afterAll(() => backends.stop(), 60_000);

describe.skipIf(!available)("pgvector", () => {
  runMemoryIndexStoreContract("Kysely on PostgreSQL with pgvector", {
    ...backends.postgresStores("memory_pgvector", async (storage) => {
      await sql`create extension if not exists vector`.execute(storage.db);
      const store = await KyselyMemoryIndexStore.open(storage);
      if ((await store.vectorIndexKind()) !== "pgvector") throw new Error("pgvector is installed but the store does not use it");
      return store;
    }),
    sharedBackend: true,
  });

  it("backfills vectors written before pgvector was installed, and ranks exactly as the scan did", async () => {
    const storage = await openPostgresStorage({ connectionString: await backends.cluster().createDatabase("memory_pgvector_backfill") });
    try {
      const scanStore = await KyselyMemoryIndexStore.open(storage);
      expect(await scanStore.vectorIndexKind()).toBe("scan");
      const project = { scope: "project" as const, workdirHash: "00112233aabbccdd" };
      const records: MemoryRecord[] = Array.from({ length: 300 }, (_, index) =>
        memoryRecord({
          ...project,
          slug: `entry-${String(index).padStart(3, "0")}`,
          type: index % 7 === 0 ? "user" : "project",
          description: `entry ${index}`,
          body: `body ${index}`,
          bodyHash: `hash-${index}`,
        }),
      );
      expect(
        await scanStore.applyBatch(
          records.map((record) => ({ kind: "upsert" as const, record })),
          [],
        ),
      ).toEqual({ ok: true });
      // Directions on a small grid, so many entries tie exactly.
      const direction = (index: number) => {
        const vector = Float32Array.from([Math.cos(index % 17), Math.sin(index % 17), (index % 5) / 5, 0.25]);
        const length = Math.hypot(...vector);
        return vector.map((component) => component / length);
      };
      await scanStore.putVectors(
        records.map((record, index) => ({ key: record, modelId: "test:grid@4", bodyHash: record.bodyHash, vector: direction(index) })),
      );
      const queries = [direction(3), direction(11), Float32Array.from([0.5, 0.5, 0.5, 0.5])];
      const ask = (store: KyselyMemoryIndexStore, vector: Float32Array, types?: MemoryRecord["type"][]) =>
        store.searchVectors({ scopes: [project], modelId: "test:grid@4", vector, limit: 20, ...(types === undefined ? {} : { types }) });
      const before = await Promise.all(queries.flatMap((vector) => [ask(scanStore, vector), ask(scanStore, vector, ["user"])]));

      await sql`create extension if not exists vector`.execute(storage.db);
      const pgvectorStore = await KyselyMemoryIndexStore.open(storage);
      expect(await pgvectorStore.vectorIndexKind()).toBe("pgvector");
      const { rows } = await sql<{ missing: string | number }>`select count(*) as missing from memory_vectors where embedding is null`.execute(storage.db);
      expect(Number(rows[0]?.missing)).toBe(0);
      const after = await Promise.all(queries.flatMap((vector) => [ask(pgvectorStore, vector), ask(pgvectorStore, vector, ["user"])]));
      expect(after).toEqual(before);
      expect(before[0]?.length).toBe(20);
      // A vector written now goes through the trigger, and a deleted entry takes its vector along.
      await pgvectorStore.putVectors([{ key: records[0]!, modelId: "test:grid@4", bodyHash: records[0]!.bodyHash, vector: queries[2]! }]);
      expect((await ask(pgvectorStore, queries[2]!))[0]?.record.slug).toBe("entry-000");
      await pgvectorStore.applyBatch([{ kind: "delete", key: records[0]! }], []);
      expect((await ask(pgvectorStore, queries[2]!)).map((hit) => hit.record.slug)).not.toContain("entry-000");
    } finally {
      await storage.close();
    }
  }, 120_000);
});
