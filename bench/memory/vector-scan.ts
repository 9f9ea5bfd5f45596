/**
 * Vector search in one scope: the memory store's scan against sqlite-vec.
 *
 * For N = 500, 1,000, 5,000, 20,000 and 100,000 seeded random unit vectors of
 * dimension 100 and 1,536 (one project scope holding all N entries), top-32
 * by similarity, timed four ways:
 * - `js decoded`: the dot-product scan and top-K of the store over vectors
 *   already decoded in one Float32Array (the floor of any JS scan);
 * - `store sqlite`: `KyselyMemoryIndexStore.searchVectors` on SQLite as the
 *   SDK ships it: the scope's version read, its decoded vectors taken from
 *   the store's cache (read once, then kept while no write moves the
 *   version), the scan, then the 32 meta rows;
 * - `sqlite uncached`: the same on a store opened with `vectorCacheBytes: 0`,
 *   which reads the scope's entries and vectors (two aggregate statements)
 *   and decodes them on every query;
 * - `sqlite-vec`: a `vec0` table (sqlite-vec 0.1.9, exact brute-force KNN in
 *   C) in a better-sqlite3 database, `embedding match ? and k = 32`, joined to
 *   a meta table for the 32 rows (the same work the store does after its scan);
 * - `store postgres` and `pg uncached` (for N up to `--postgres-max`, default
 *   20,000): the same two on PostgreSQL without pgvector (uncached: a row per
 *   entry and per vector, the bytea parsed from hex text).
 * Each figure is the median wall time of Q queries after 3 warm-up ones (Q =
 * 60 up to 5,000 entries, 25 at 20,000, 10 at 100,000) and, in brackets, the
 * CPU time of this process per query (PostgreSQL's own work is not in it),
 * with the load average. The last lines give the crossover per dimension:
 * the smallest N at which sqlite-vec takes less CPU than the store's cached SQLite
 * scan.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/memory/vector-scan.ts [--sizes=500,1000,5000,20000,100000] [--dims=100,1536] [--postgres-max=20000]
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { MemoryIndexStore, MemoryRecord } from "@agent-tools/memory";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import {
  type IndexBackend,
  indexRecord,
  machineLine,
  median,
  ms,
  openPostgresBackend,
  openSqliteBackend,
  printTable,
  projectHash,
  seededRandom,
} from "./bench-util.js";

const TOP_K = 32;
const BATCH = 2_000;
const MODEL = "bench:random-unit";

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/** `count` seeded random unit vectors of `dimension`, in one Float32Array (row-major). */
function randomUnitVectors(seed: number, count: number, dimension: number): Float32Array {
  const random = seededRandom(seed);
  const vectors = new Float32Array(count * dimension);
  for (let row = 0; row < count; row += 1) {
    let squared = 0;
    for (let column = 0; column < dimension; column += 1) {
      // Roughly Gaussian (sum of three uniforms), so directions spread evenly.
      const value = random() + random() + random() - 1.5;
      vectors[row * dimension + column] = value;
      squared += value * value;
    }
    const norm = Math.sqrt(squared);
    for (let column = 0; column < dimension; column += 1) vectors[row * dimension + column]! /= norm;
  }
  return vectors;
}

/** The store's scan over decoded vectors: dot products, the best `k` kept in a small sorted array (ties by index). */
function jsScan(vectors: Float32Array, dimension: number, query: Float32Array, k: number): number[] {
  const bestIndex: number[] = [];
  const bestScore: number[] = [];
  const count = vectors.length / dimension;
  for (let row = 0; row < count; row += 1) {
    let sum = 0;
    const offset = row * dimension;
    for (let column = 0; column < dimension; column += 1) sum += vectors[offset + column]! * query[column]!;
    if (bestScore.length === k && sum <= bestScore[k - 1]!) continue;
    let at = bestScore.length;
    while (at > 0 && sum > bestScore[at - 1]!) at -= 1;
    bestScore.splice(at, 0, sum);
    bestIndex.splice(at, 0, row);
    if (bestScore.length > k) {
      bestScore.pop();
      bestIndex.pop();
    }
  }
  return bestIndex;
}

function record(index: number, workdirHash: string): MemoryRecord {
  return indexRecord({
    slug: `v-${String(index).padStart(6, "0")}`,
    scope: "project",
    workdirHash,
    type: "project",
    description: `entry ${index}`,
    body: `vector bench entry ${index}`,
    createdAt: 1_700_000_000_000 + index,
    updatedAt: 1_700_000_000_000 + index,
  });
}

/** Loads N entries and their vectors into a store (one project scope). */
async function loadStore(store: MemoryIndexStore, vectors: Float32Array, dimension: number, workdirHash: string): Promise<void> {
  const count = vectors.length / dimension;
  for (let start = 0; start < count; start += BATCH) {
    const records = Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) => record(start + offset, workdirHash));
    const outcome = await store.applyBatch(
      records.map((entry) => ({ kind: "upsert" as const, record: entry })),
      [],
    );
    if (!outcome.ok) throw new Error("load refused");
    const { stored } = await store.putVectors(
      records.map((entry, offset) => ({
        key: entry,
        modelId: MODEL,
        bodyHash: entry.bodyHash,
        vector: vectors.subarray((start + offset) * dimension, (start + offset + 1) * dimension),
      })),
    );
    if (stored !== records.length) throw new Error(`stored ${stored} of ${records.length} vectors`);
  }
}

/** A better-sqlite3 database with sqlite-vec, a vec0 table of the vectors and a meta table. */
function openSqliteVec(directory: string, vectors: Float32Array, dimension: number): Database.Database {
  const db = new Database(path.join(directory, "vec.sqlite"));
  db.pragma("journal_mode = WAL");
  sqliteVec.load(db);
  db.exec(`create virtual table vec_items using vec0(embedding float[${dimension}] distance_metric=cosine)`);
  db.exec("create table meta (id integer primary key, slug text not null, description text not null, body text not null)");
  const insertVector = db.prepare("insert into vec_items (rowid, embedding) values (?, ?)");
  const insertMeta = db.prepare("insert into meta (id, slug, description, body) values (?, ?, ?, ?)");
  const count = vectors.length / dimension;
  const load = db.transaction((start: number, end: number) => {
    for (let row = start; row < end; row += 1) {
      const vector = vectors.subarray(row * dimension, (row + 1) * dimension);
      insertVector.run(BigInt(row + 1), Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      insertMeta.run(row + 1, `v-${row}`, `entry ${row}`, `vector bench entry ${row}`);
    }
  });
  for (let start = 0; start < count; start += BATCH) load(start, Math.min(count, start + BATCH));
  return db;
}

/** A timing: the median wall time of a query, and this process's CPU time per query (less moved by the machine's load). */
interface Timing {
  readonly wall: number;
  readonly cpu: number;
}

/** Times `run` over `queries` (after 3 warm-up calls). */
async function time(queries: readonly Float32Array[], run: (query: Float32Array) => unknown): Promise<Timing> {
  for (const query of queries.slice(0, 3)) await run(query);
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  for (const query of queries.slice(3)) {
    const start = performance.now();
    await run(query);
    times.push(performance.now() - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: median(times), cpu: (cpu.user + cpu.system) / 1000 / times.length };
}

const NONE: Timing = { wall: Number.NaN, cpu: Number.NaN };
const show = (timing: Timing) => (Number.isNaN(timing.wall) ? "-" : `${ms(timing.wall)} (${ms(timing.cpu)})`);

async function main(): Promise<void> {
  const sizes = option("sizes", "500,1000,5000,20000,100000").split(",").map(Number);
  const dims = option("dims", "100,1536").split(",").map(Number);
  const postgresMax = Number(option("postgres-max", "20000"));
  console.log(machineLine());
  console.log(`top-${TOP_K} of N unit vectors in one scope; median wall ms per query (this process's CPU ms per query)\n`);
  const workdirHash = projectHash("vector-scan");
  const scope = { scope: "project" as const, workdirHash };
  const rows: string[][] = [["dim", "N", "js decoded", "store sqlite", "sqlite uncached", "sqlite-vec", "store postgres", "pg uncached", "queries"]];
  const crossover = new Map<number, number | undefined>();
  for (const dimension of dims) {
    for (const size of sizes) {
      const vectors = randomUnitVectors(dimension * 1_000_003 + size, size, dimension);
      const queryCount = size <= 5_000 ? 60 : size <= 20_000 ? 25 : 10;
      const queries = Array.from({ length: queryCount + 3 }, (_, index) => randomUnitVectors(99_000 + index, 1, dimension));
      const js = await time(queries, (query) => jsScan(vectors, dimension, query, TOP_K));

      const sqlite = await openSqliteBackend();
      if (typeof sqlite === "string") throw new Error(sqlite);
      const backends: IndexBackend[] = [sqlite];
      let store = NONE;
      let storeUncached = NONE;
      let postgres = NONE;
      let postgresUncached = NONE;
      const search = (target: MemoryIndexStore) => (query: Float32Array) =>
        target.searchVectors({ scopes: [scope], modelId: MODEL, vector: query, limit: TOP_K });
      try {
        await loadStore(sqlite.store, vectors, dimension, workdirHash);
        store = await time(queries, search(sqlite.store));
        storeUncached = await time(queries, search(await sqlite.openStore({ vectorCacheBytes: 0 })));
        if (size <= postgresMax) {
          const pg = await openPostgresBackend();
          if (typeof pg === "string") console.log(`(PostgreSQL skipped: ${pg})`);
          else {
            backends.push(pg);
            await loadStore(pg.store, vectors, dimension, workdirHash);
            postgres = await time(queries, search(pg.store));
            postgresUncached = await time(queries, search(await pg.openStore({ vectorCacheBytes: 0 })));
          }
        }
      } finally {
        for (const backend of backends) await backend.close();
      }

      const directory = await fs.mkdtemp(path.join(os.tmpdir(), "memory-bench-vec-"));
      let vec = NONE;
      try {
        const db = openSqliteVec(directory, vectors, dimension);
        const knn = db.prepare(
          `select m.id, m.slug, m.description, m.body, k.distance from (select rowid, distance from vec_items where embedding match ? and k = ${TOP_K}) k
           join meta m on m.id = k.rowid order by k.distance, m.slug`,
        );
        vec = await time(queries, (query) => knn.all(Buffer.from(query.buffer, query.byteOffset, query.byteLength)));
        db.close();
      } finally {
        await fs.rm(directory, { recursive: true, force: true });
      }
      if (vec.cpu < store.cpu && !crossover.has(dimension)) crossover.set(dimension, size);
      rows.push([
        String(dimension),
        size.toLocaleString("en"),
        show(js),
        show(store),
        show(storeUncached),
        show(vec),
        show(postgres),
        show(postgresUncached),
        String(queryCount),
      ]);
      console.log(
        `  dim ${dimension}, N ${size}: js ${show(js)}, store sqlite ${show(store)} (uncached ${show(storeUncached)}), sqlite-vec ${show(vec)}, store postgres ${show(postgres)} (uncached ${show(postgresUncached)}) ms`,
      );
    }
  }
  console.log("");
  printTable(rows);
  console.log("");
  for (const dimension of dims) {
    const size = crossover.get(dimension);
    console.log(
      `dim ${dimension}: ${size === undefined ? `the store's scan was faster than sqlite-vec at every N up to ${Math.max(...sizes).toLocaleString("en")}` : `sqlite-vec faster from N = ${size.toLocaleString("en")}`}`,
    );
  }
  console.log(
    `load at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" / ")}`,
  );
}

await main();
