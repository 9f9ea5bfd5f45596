/**
 * Shared helpers of the memory benchmarks: a seeded random source, a
 * Zipf-like word picker, percentiles, index records built without files, the
 * SQLite / PostgreSQL index backends and the machine line every script prints.
 *
 * The packages are imported by name; run with
 * `--conditions=@agent-tools/source` to use their sources rather than a build.
 */
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { MemoryIndexStore, MemoryRecord, MemoryScope, StoredMemoryType } from "@agent-tools/memory";
import { openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import type { Storage } from "@agent-tools/storage";
import { findPostgresBinDir, type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";

/** A seeded 32-bit generator (mulberry32): the same seed gives the same corpus. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One element of `items`, uniformly. */
export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** An integer in [min, max], log-uniform (short texts more often than long ones). */
export function logUniformInt(random: () => number, min: number, max: number): number {
  return Math.round(Math.exp(Math.log(min) + random() * (Math.log(max) - Math.log(min))));
}

/**
 * A vocabulary of `size` made-up words (syllable combinations, distinct) with
 * Zipf-like frequencies (`1 / rank^s`): a few words everywhere, most rare.
 */
export class ZipfVocabulary {
  readonly words: readonly string[];
  readonly #cumulative: Float64Array;

  constructor(random: () => number, size: number, exponent = 1.05) {
    const onsets = ["b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z", "br", "st", "tr", "pl", "gr", "sh", "ch"];
    const vowels = ["a", "e", "i", "o", "u", "ai", "ou", "ea"];
    const codas = ["", "", "n", "r", "s", "l", "t", "m", "ck", "nd"];
    const seen = new Set<string>();
    const words: string[] = [];
    while (words.length < size) {
      const syllables = 1 + Math.floor(random() * 3);
      let word = "";
      for (let index = 0; index < syllables; index += 1) word += pick(random, onsets) + pick(random, vowels) + pick(random, codas);
      if (word.length < 3 || seen.has(word)) continue;
      seen.add(word);
      words.push(word);
    }
    this.words = words;
    this.#cumulative = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank += 1) {
      total += 1 / (rank + 1) ** exponent;
      this.#cumulative[rank] = total;
    }
    for (let rank = 0; rank < size; rank += 1) this.#cumulative[rank]! /= total;
  }

  /** One word drawn by frequency. */
  draw(random: () => number): string {
    const target = random();
    let low = 0;
    let high = this.#cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return this.words[low]!;
  }

  /** The word of frequency rank `rank` (0 = most frequent). */
  at(rank: number): string {
    return this.words[Math.min(rank, this.words.length - 1)]!;
  }
}

/** The value below which `fraction` of the sorted `values` lie (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index]!;
}

/** The median of `values` (the upper middle one for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Milliseconds with two decimals below 10, one below 100, none above. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return "n/a";
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** Pads every column of `rows` (the first is the header) and prints them. */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  "));
    if (index === 0) console.log(widths.map((width) => "-".repeat(width)).join("  "));
  }
}

/** The machine line every script prints first: cores, model and the load averages. */
export function machineLine(): string {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ");
  return `machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? "unknown"}), Node ${process.version}, load 1/5/15 min ${load}`;
}

/** What {@link indexRecord} needs to build a record. */
export interface RecordInput {
  readonly slug: string;
  readonly scope: MemoryScope;
  readonly workdirHash: string;
  readonly type: StoredMemoryType;
  readonly description: string;
  readonly body: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly supersedes?: string;
}

/** A full index record for `input`, as if a Markdown file of that content existed. */
export function indexRecord(input: RecordInput): MemoryRecord {
  const bodyHash = createHash("sha256").update(`${input.description}\n${input.body}`).digest("hex");
  return {
    slug: input.slug,
    scope: input.scope,
    workdirHash: input.workdirHash,
    type: input.type,
    description: input.description,
    body: input.body,
    unreviewed: false,
    riskFlags: [],
    source: { confidence: "high" },
    links: input.supersedes === undefined ? {} : { supersedes: input.supersedes },
    appendCount: 0,
    archived: false,
    bodyHash,
    fileMtimeMs: input.updatedAt,
    fileSize: Buffer.byteLength(input.body) + Buffer.byteLength(input.description) + 120,
    createdAt: input.createdAt,
    updatedAt: input.updatedAt,
  };
}

/** A made-up project hash (16 hex characters), stable per name. */
export function projectHash(name: string): string {
  return createHash("sha256").update(name).digest("hex").slice(0, 16);
}

/** An index backend opened for one benchmark. */
export interface IndexBackend {
  readonly name: "sqlite" | "postgres";
  readonly store: MemoryIndexStore;
  /**
   * Puts what the load wrote on disk (SQLite: every file of the data
   * directory fsynced; PostgreSQL: `CHECKPOINT`), so that timed queries do
   * not share the machine with the write-back of a bulk load.
   */
  flush(): Promise<void>;
  /** Opens another store over the same database, with the given store options (closed by `close`). */
  openStore(options: { readonly vectorCacheBytes?: number }): Promise<MemoryIndexStore>;
  /** Closes the store, its storage and (PostgreSQL) the throwaway cluster; removes temp files. */
  close(): Promise<void>;
}

type KyselyStoreModule = {
  KyselyMemoryIndexStore: { open(storage: Storage, options?: { readonly vectorCacheBytes?: number }): Promise<MemoryIndexStore> };
};

/** `openStore` and the list of stores it opened, for a backend over `storage`. */
function extraStores(Store: KyselyStoreModule["KyselyMemoryIndexStore"], storage: Storage) {
  const opened: MemoryIndexStore[] = [];
  return {
    opened,
    async openStore(options: { readonly vectorCacheBytes?: number }): Promise<MemoryIndexStore> {
      const store = await Store.open(storage, options);
      opened.push(store);
      return store;
    },
  };
}

/** The Kysely index store, or a note why it cannot be loaded (it lives in the memory package's stores). */
export async function loadKyselyStore(): Promise<KyselyStoreModule["KyselyMemoryIndexStore"] | string> {
  try {
    const module = (await import("@agent-tools/memory")) as unknown as Partial<KyselyStoreModule>;
    if (module.KyselyMemoryIndexStore !== undefined) return module.KyselyMemoryIndexStore;
    return "KyselyMemoryIndexStore is not exported by @agent-tools/memory yet";
  } catch (error) {
    return `cannot load @agent-tools/memory: ${(error as Error).message}`;
  }
}

/** The SQLite backend in a fresh temp data directory. */
export async function openSqliteBackend(): Promise<IndexBackend | string> {
  const Store = await loadKyselyStore();
  if (typeof Store === "string") return Store;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-bench-sqlite-"));
  const storage = await openSqliteStorage({ dataDir });
  const store = await Store.open(storage);
  const extra = extraStores(Store, storage);
  return {
    name: "sqlite",
    store,
    openStore: extra.openStore,
    async flush() {
      for (const name of await fs.readdir(dataDir)) {
        const handle = await fs.open(path.join(dataDir, name), "r+");
        await handle.sync().finally(() => handle.close());
      }
    },
    async close() {
      for (const other of extra.opened) await other.close?.();
      await store.close?.();
      await storage.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The PostgreSQL backend on a throwaway cluster, or a note why not (no binaries, no store). */
export async function openPostgresBackend(): Promise<IndexBackend | string> {
  const Store = await loadKyselyStore();
  if (typeof Store === "string") return Store;
  if (findPostgresBinDir() === undefined) return "no PostgreSQL binaries (set AGENT_TOOLS_POSTGRES_BIN or install postgresql)";
  let cluster: PostgresTestCluster | undefined;
  try {
    cluster = await startPostgresTestCluster();
    const connectionString = await cluster.createDatabase("memory_bench");
    const storage = await openPostgresStorage({ connectionString });
    const psql = path.join(findPostgresBinDir() as string, "psql");
    const store = await Store.open(storage);
    const extra = extraStores(Store, storage);
    const running = cluster;
    return {
      name: "postgres",
      store,
      openStore: extra.openStore,
      async flush() {
        await promisify(execFile)(psql, ["--no-psqlrc", "-q", "-d", connectionString, "-c", "checkpoint"]);
      },
      async close() {
        for (const other of extra.opened) await other.close?.();
        await store.close?.();
        await storage.close();
        await running.stop();
      },
    };
  } catch (error) {
    await cluster?.stop();
    return `PostgreSQL did not start: ${(error as Error).message}`;
  }
}

/** The kernel's dirty page cache in MB (`Dirty:` of /proc/meminfo), or undefined off Linux. */
function dirtyMegabytes(): number | undefined {
  try {
    const match = /^Dirty:\s+(\d+) kB/m.exec(readFileSync("/proc/meminfo", "utf8"));
    return match === null ? undefined : Number(match[1]) / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Flushes every backend's writes ({@link IndexBackend.flush}), then waits
 * (up to `maxSeconds`) until the kernel holds less than 64 MB of dirty
 * pages; returns a line saying how long that took and what was left.
 */
export async function settleAfterLoad(backends: readonly IndexBackend[], maxSeconds = 120): Promise<string> {
  const start = performance.now();
  await Promise.all(backends.map((backend) => backend.flush()));
  let dirty = dirtyMegabytes();
  while (dirty !== undefined && dirty >= 64 && performance.now() - start < maxSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    dirty = dirtyMegabytes();
  }
  const left = dirty === undefined ? "no /proc/meminfo" : `${dirty.toFixed(0)} MB dirty left`;
  return `settled after the load in ${((performance.now() - start) / 1000).toFixed(1)} s (databases flushed; ${left})`;
}
