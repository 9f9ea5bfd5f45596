/**
 * Issue 40, decoded-vector cache, area 3: PostgreSQL deadlocks. Every write
 * transaction now ends by locking its scopes' memory_scope_versions rows
 * (pruneVectors: every row, `order by ... collate "C"`). Two store
 * instances (a pool each) race applyBatch over several scopes in opposite
 * orders, putVectors and pruneVectors for many rounds; and a third session
 * holds one row so the interleaving a lock-order mismatch needs happens for
 * sure rather than by luck.
 */
import type { Storage } from "@agent-tools/storage";
import { sql } from "../../packages/memory/node_modules/kysely/dist/esm/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Rec, type Ref, cacheBackends, openDatabase, project, put, rec, row, unit } from "./memory-vector-cache-harness.js";

const backends = cacheBackends("attack-vector-cache-deadlock-");
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

/** Sessions of the test's database waiting on a lock. */
async function lockWaiters(storage: Storage): Promise<number> {
  const { rows } = await sql<{ total: string }>`select count(*) as total from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(storage.db);
  return Number(rows[0]?.total ?? 0);
}

async function waitForWaiters(storage: Storage, count: number): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    if ((await lockWaiters(storage)) >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`never saw ${count} sessions waiting on a lock`);
}

/** Runs `staged` while a third session holds `lock` (a locking SELECT), released by the returned function. */
async function holdLock(storage: Storage, lock: (transaction: Storage["db"]) => Promise<unknown>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked = () => {};
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = storage.db.transaction().execute(async (transaction) => {
    await lock(transaction as Storage["db"]);
    locked();
    await released;
  });
  await isLocked;
  return async () => {
    release();
    await holder;
  };
}

const settle = (promises: (Promise<unknown> | undefined)[]) =>
  Promise.allSettled(promises).then((results) => results.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : [])));

describe("attack: PostgreSQL writers of several scopes at once", () => {
  it("held: applyBatch in opposite scope orders, putVectors and pruneVectors from two pools, 40 rounds: no deadlock, no hang", async () => {
    const db = await openDatabase(backends, "postgres");
    try {
      const [first, second] = [await db.open(), await db.open()];
      const scopes: Ref[] = ["s1", "s2", "s3", "s4", "s5"].map(project);
      let records = scopes.flatMap((scope) => [rec(scope, "a"), rec(scope, "b")]);
      await put(first, ...records);
      const errors: string[] = [];
      for (let round = 0; round < 40; round += 1) {
        const old = `attack:old-${round}`;
        await first.putVectors([row(records[round % records.length] as Rec, old, unit(1, 1))]);
        const forward = records
          .filter((record) => record.slug === "a")
          .map((record) => ({ ...record, bodyHash: `h-${round}`, updatedAt: record.updatedAt + 1 }));
        const backward = records
          .filter((record) => record.slug === "b")
          .reverse()
          .map((record) => ({ ...record, bodyHash: `h-${round}`, updatedAt: record.updatedAt + 1 }));
        records = [...forward, ...backward];
        errors.push(
          ...(await settle([
            first.applyBatch(
              forward.map((record) => ({ kind: "upsert" as const, record })),
              [],
            ),
            second.applyBatch(
              backward.map((record) => ({ kind: "upsert" as const, record })),
              [],
            ),
            first.putVectors(records.map((record) => row(record, "attack:keep", unit(round % 2, 1)))),
            second.pruneVectors({ keepModelId: "attack:keep" }),
            second.putVectors(forward.map((record) => row(record, "attack:keep", unit(1, round % 2)))),
          ])),
        );
      }
      expect(errors.filter((error) => /deadlock/i.test(error))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await db.close();
    }
  }, 120_000);

  // Finding C6: applyBatch (and putVectors) bump the scopes' versions in JavaScript's code-unit order, pruneVectors
  // locks every row `order by workdir_hash collate "C"` (code-point order). The two orders differ between a character
  // above U+FFFF (surrogates) and one in U+E000..U+FFFF, so with such workdir hashes a prune and a batch locked two
  // rows in opposite orders: "deadlock detected".
  it("(was C6) applyBatch against pruneVectors over workdir hashes whose code-unit and code-point orders differ", async () => {
    const db = await openDatabase(backends, "postgres");
    try {
      const [batcher, pruner] = [await db.open(), await db.open()];
      const [astral, privateUse, between] = [project("p\u{10000}"), project("p\uE000"), project("p\uF000")];
      const records = [rec(astral, "x"), rec(privateUse, "x"), rec(between, "x")];
      await put(batcher, ...records);
      // The pruned model has vectors in all three scopes, so the prune moves all three versions.
      await batcher.putVectors(records.map((record) => row(record, "attack:old", unit(1, 0))));
      const watcher = await db.storage();
      const release = await holdLock(await db.storage(), (transaction) =>
        sql`select version from memory_scope_versions where workdir_hash = ${between.workdirHash} for update`.execute(transaction),
      );
      let prune: Promise<number> | undefined;
      let batch: Promise<unknown> | undefined;
      try {
        prune = pruner.pruneVectors({ keepModelId: "attack:keep" });
        await waitForWaiters(watcher, 1);
        batch = batcher.applyBatch(
          records.slice(0, 2).map((record) => ({ kind: "upsert" as const, record: { ...record, updatedAt: record.updatedAt + 1 } })),
          [],
        );
        await waitForWaiters(watcher, 2);
      } finally {
        await release();
      }
      expect(await settle([prune, batch])).toEqual([]);
      expect(await prune).toBe(3);
      expect(await batch).toEqual({ ok: true });
    } finally {
      await db.close();
    }
  }, 60_000);

  // Finding C7: the same two orders on the meta rows: applyBatch writes its keys in code-unit order, putVectors
  // share-locks them `order by slug collate "C"`.
  it("(was C7) applyBatch against putVectors over slugs whose code-unit and code-point orders differ", async () => {
    const db = await openDatabase(backends, "postgres");
    try {
      const [batcher, putter] = [await db.open(), await db.open()];
      const P = project("wd-slugs");
      const [astral, privateUse, between] = [rec(P, "\u{10000}"), rec(P, "\uE000"), rec(P, "\uF000")];
      await put(batcher, astral, privateUse, between);
      const watcher = await db.storage();
      const release = await holdLock(await db.storage(), (transaction) =>
        sql`select id from memory_meta where workdir_hash = ${P.workdirHash} and slug = ${between.slug} for update`.execute(transaction),
      );
      let vectors: Promise<unknown> | undefined;
      let batch: Promise<unknown> | undefined;
      try {
        vectors = putter.putVectors([astral, privateUse, between].map((record) => row(record, "attack:m", unit(1, 0))));
        await waitForWaiters(watcher, 1);
        batch = batcher.applyBatch(
          [astral, privateUse].map((record) => ({ kind: "upsert" as const, record: { ...record, description: "changed", updatedAt: record.updatedAt + 1 } })),
          [],
        );
        await waitForWaiters(watcher, 2);
      } finally {
        await release();
      }
      expect(await settle([vectors, batch])).toEqual([]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
