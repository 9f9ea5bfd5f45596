/**
 * Shared set-up of the attacks on the memory store's decoded-vector cache
 * (issue 40): records and vector rows written straight through the store,
 * searches compared with a fresh store over the same database, SQLite files
 * and a throwaway PostgreSQL with a pool per store.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { KyselyMemoryIndexStore, type MemoryIndexStore, type MemoryRecord } from "@agent-tools/memory";
import { memoryRecord } from "@agent-tools/memory/testing";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";

export type Ref = { readonly scope: "global" | "project"; readonly workdirHash: string };
export type Rec = MemoryRecord;

export const GLOBAL: Ref = { scope: "global", workdirHash: "" };
export const project = (workdirHash: string): Ref => ({ scope: "project", workdirHash });

/** The unit vector along `components`, as float32. */
export function unit(...components: number[]): Float32Array {
  const length = Math.hypot(...components);
  return Float32Array.from(components, (component) => component / length);
}

let clock = 1_000;
/** A record of `ref` (a fresh updatedAt each call unless given). */
export function rec(ref: Ref, slug: string, set: Partial<Rec> = {}): Rec {
  clock += 1;
  return memoryRecord({ ...ref, slug, description: `about ${slug}`, bodyHash: `h-${slug}`, updatedAt: clock, ...set });
}

/** Upserts `records` unconditionally; throws unless the batch landed. */
export async function put(store: MemoryIndexStore, ...records: Rec[]): Promise<void> {
  const result = await store.applyBatch(
    records.map((record) => ({ kind: "upsert" as const, record })),
    [],
  );
  if (!result.ok) throw new Error(`batch refused: ${JSON.stringify(result)}`);
}

/** A putVectors row for `record`'s body. */
export const row = (record: Rec, modelId: string, vector: Float32Array, bodyHash = record.bodyHash) => ({
  key: { scope: record.scope, workdirHash: record.workdirHash, slug: record.slug },
  modelId,
  bodyHash,
  vector,
});

/** A search's answer as comparable data: [scope/workdirHash/slug, similarity (4 decimals)], and the skipped keys; or the error code. */
export async function answer(
  store: MemoryIndexStore,
  query: { scopes: readonly Ref[]; modelId: string; vector: Float32Array; limit?: number; includeArchived?: boolean },
) {
  try {
    const hits = await store.searchVectors({ limit: 50, ...query } as never);
    return {
      hits: hits.map((hit) => [`${hit.record.scope}/${hit.record.workdirHash}/${hit.record.slug}`, Number(hit.similarity.toFixed(4))]),
      skipped: (hits.skipped ?? []).map((skip) => `${skip.key.scope}/${skip.key.workdirHash}/${skip.key.slug}:${skip.reason}`),
    };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

/** Temp directory and PostgreSQL cluster for one attack file. */
export function cacheBackends(prefix: string) {
  const backends = createStoreTestBackends(prefix);
  let databases = 0;
  return {
    start: () => backends.start(),
    stop: () => backends.stop(),
    temporary: backends.temporary,
    /** A fresh SQLite file's path. */
    sqliteFile: () => path.join(backends.temporary, `db-${++databases}.sqlite`),
    /** A fresh PostgreSQL database's URL. */
    postgresUrl: () => backends.cluster().createDatabase(`vcache_${++databases}`),
  };
}

/** A database every store of a test opens a storage on (SQLite: one shared storage, as one process shares a file; PostgreSQL: a pool each). */
export interface Database {
  readonly label: "sqlite" | "postgres";
  readonly location: string;
  open(options?: { vectorCacheBytes?: number }): Promise<KyselyMemoryIndexStore>;
  /** A raw storage on the database. */
  storage(): Promise<Storage>;
  close(): Promise<void>;
}

export async function openDatabase(backends: ReturnType<typeof cacheBackends>, label: "sqlite" | "postgres"): Promise<Database> {
  const location = label === "sqlite" ? backends.sqliteFile() : await backends.postgresUrl();
  const storages: Storage[] = [];
  let shared: Storage | undefined;
  const storage = async () => {
    if (label === "sqlite") return (shared ??= await openSqliteStorage({ filename: location }));
    const opened = await openPostgresStorage({ connectionString: location });
    storages.push(opened);
    return opened;
  };
  return {
    label,
    location,
    storage,
    open: async (options = {}) => KyselyMemoryIndexStore.open(await storage(), options),
    close: async () => {
      for (const opened of storages) await opened.close();
      await shared?.close();
    },
  };
}

/** Searches `reader` and a store opened fresh (empty cache) on the same database; both answers must agree. */
export async function expectFresh(database: Database, reader: MemoryIndexStore, query: Parameters<typeof answer>[1], note: string) {
  const fresh = await database.open();
  const [cached, truth] = [await answer(reader, query), await answer(fresh, query)];
  await fresh.close();
  return { cached, truth, note };
}

/** Removes a directory tree. */
export const removeTree = (directory: string) => fs.rmSync(directory, { recursive: true, force: true });
export const tempDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
