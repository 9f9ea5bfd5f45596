/**
 * Issue 40, decoded-vector cache, area 4: memory. What the store keeps must
 * stay within vectorCacheBytes however it is searched: many scopes of
 * 1,536-component vectors, a scope larger than the whole budget (served
 * right, not kept), and searches whose model ids or workdir hashes are long
 * (the cache's keys). Measured as the process's heap plus array buffers
 * after a full collection, with a tiny budget against the default.
 */
import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import type { KyselyMemoryIndexStore } from "@agent-tools/memory";
import { sql } from "../../packages/memory/node_modules/kysely/dist/esm/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, type Rec, cacheBackends, openDatabase, project, put, rec, row } from "./memory-vector-cache-harness.js";

v8.setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const backends = cacheBackends("attack-vector-cache-memory-");
beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

const MiB = 1024 * 1024;
const DIMENSION = 1536;

/** Heap plus array buffers after a full collection. */
function held(): number {
  collect();
  collect();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** A unit vector of DIMENSION components, mostly along `axis`, a little noise from `seed`. */
function vectorFor(axis: number, seed: number): Float32Array {
  const vector = new Float32Array(DIMENSION);
  let state = seed * 2654435761;
  for (let index = 0; index < DIMENSION; index += 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    vector[index] = (state / 2 ** 31 - 0.5) * 0.01;
  }
  vector[axis] = 1;
  let length = 0;
  for (const component of vector) length += component * component;
  return vector.map((component) => component / Math.sqrt(length));
}

const SCOPES = 40;
const PER_SCOPE = 50; // 40 x 50 x 1,536 x 4 bytes: 12 MiB of decoded vectors

async function fill(db: Database): Promise<void> {
  const writer = await db.open();
  for (let scope = 0; scope < SCOPES; scope += 1) {
    const records = Array.from({ length: PER_SCOPE }, (_, index) => rec(project(`wd-${scope}`), `e${index}`));
    await put(writer, ...records);
    await writer.putVectors(records.map((record, index) => row(record, "attack:1536", vectorFor(index, scope * 1000 + index))));
  }
}

/** Searches every scope twice; checks each answer; returns the bytes still held with the store alive. */
async function searchAll(store: KyselyMemoryIndexStore): Promise<number> {
  const before = held();
  for (let pass = 0; pass < 2; pass += 1) {
    for (let scope = 0; scope < SCOPES; scope += 1) {
      const axis = (scope * 7) % PER_SCOPE;
      const hits = await store.searchVectors({ scopes: [project(`wd-${scope}`)], modelId: "attack:1536", vector: vectorFor(axis, 999_999), limit: 3 });
      expect(hits[0]?.record.slug, `scope ${scope}`).toBe(`e${axis}`);
    }
  }
  return held() - before;
}

describe("attack: the cache's memory on SQLite", () => {
  it("held: 40 scopes of 1,536-component vectors: a 1 MiB budget keeps about 1 MiB, the default keeps them all", async () => {
    const db = await openDatabase(backends, "sqlite");
    try {
      await fill(db);
      const tiny = await db.open({ vectorCacheBytes: MiB });
      const tinyHeld = await searchAll(tiny);
      const roomy = await db.open();
      const roomyHeld = await searchAll(roomy);
      expect(tinyHeld).toBeLessThan(4 * MiB);
      expect(roomyHeld).toBeGreaterThan(8 * MiB); // the measurement sees the cache at all
      await roomy.close();
      expect(held()).toBeLessThan(tinyHeld + roomyHeld + 64 * MiB); // close() lets it go (a loose bound: the heap moves)
    } finally {
      await db.close();
    }
  }, 120_000);

  it("held: a scope larger than the budget is answered right every time and never kept", async () => {
    const db = await openDatabase(backends, "sqlite");
    try {
      await fill(db);
      const store = await db.open({ vectorCacheBytes: 100 * 1024 }); // one scope: 300 KiB
      const keeps = await db.open();
      const P = project("wd-0");
      const search = async (which: KyselyMemoryIndexStore, axis: number) =>
        (await which.searchVectors({ scopes: [P], modelId: "attack:1536", vector: vectorFor(axis, 5), limit: 1 }))[0]?.record.slug;
      expect([await search(store, 3), await search(store, 4), await search(keeps, 3)]).toEqual(["e3", "e4", "e3"]);
      // A vector changed behind the versions' back (a test-only path): only a store that kept the scope misses it.
      const storage = await db.storage();
      await sql`update memory_vectors set vector = ${Buffer.from(vectorFor(3, 1).buffer)} where workdir_hash = 'wd-0' and slug = 'e9'`.execute(storage.db);
      await sql`update memory_vectors set vector = ${Buffer.from(vectorFor(9, 1).buffer)} where workdir_hash = 'wd-0' and slug = 'e3'`.execute(storage.db);
      expect(await search(store, 3)).toBe("e9");
      expect(await search(keeps, 3)).toBe("e3");
    } finally {
      await db.close();
    }
  }, 120_000);

  // Finding C8: the budget counted each value's vectors and strings but not its key (JSON of scope, workdir hash,
  // model id and dimension), so an empty scope searched under many long model ids cost 64 bytes each against the
  // budget while holding the whole key: with a 64 KiB budget, 300 searches with distinct 256 KiB model ids kept
  // about 75 MiB.
  it("(was C8) long model ids and workdir hashes count against the budget", async () => {
    const db = await openDatabase(backends, "sqlite");
    try {
      const store = await db.open({ vectorCacheBytes: 64 * 1024 });
      const one: Rec = rec(project("wd-long"), "one");
      await put(store, one);
      const before = held();
      for (let index = 0; index < 300; index += 1) {
        const modelId = `${String(index).padStart(4, "0")}${"m".repeat(256 * 1024)}`;
        expect(await store.searchVectors({ scopes: [project("wd-long")], modelId, vector: vectorFor(0, 1), limit: 1 })).toEqual([]);
      }
      expect(held() - before).toBeLessThan(16 * MiB);
      // Long workdir hashes the same way (each its own scope, nothing stored there).
      const middle = held();
      for (let index = 0; index < 300; index += 1) {
        const scope = project(`${String(index).padStart(4, "0")}${"w".repeat(256 * 1024)}`);
        expect(await store.searchVectors({ scopes: [scope], modelId: "attack:short", vector: vectorFor(0, 1), limit: 1 })).toEqual([]);
      }
      expect(held() - middle).toBeLessThan(16 * MiB);
    } finally {
      await db.close();
    }
  }, 120_000);
});
