/**
 * Shared set-up of the issue-40 memory embedding attacks: the three index
 * backends (in-memory, SQLite, a throwaway PostgreSQL), memory folders, a
 * concept embedder whose vectors a test controls, and a gate that holds an
 * embedding call in flight.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { InMemoryMemoryIndexStore, KyselyMemoryIndexStore, type MemoryIndexStore } from "@agent-tools/memory";
import { FunctionEmbeddingClient, type FunctionEmbeddingClientOptions } from "@agent-tools/memory/testing";
import { openSqliteStorage, type Storage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";

/** Concepts of the test embedder: a text's vector counts the words of each concept it holds. */
export const CONCEPTS: readonly (readonly string[])[] = [
  ["dog", "dogs", "puppy", "hound", "canine", "terrier"],
  ["pizza", "pasta", "restaurant", "lunch", "trattoria"],
  ["flight", "airport", "plane", "holiday", "lisbon"],
  ["typescript", "compiler", "build", "bundler"],
];

/** The concept vector of a text. */
export function conceptVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return CONCEPTS.map((concept) => words.filter((word) => concept.includes(word)).length);
}

/** A {@link FunctionEmbeddingClient} over {@link CONCEPTS}. */
export function conceptEmbedder(options: Partial<FunctionEmbeddingClientOptions> = {}): FunctionEmbeddingClient {
  return new FunctionEmbeddingClient({ dimension: CONCEPTS.length, modelId: "attack:concepts@4", vectorOf: conceptVector, ...options });
}

/** The unit vector along `components`. */
export function unit(...components: number[]): Float32Array {
  const length = Math.hypot(...components);
  return Float32Array.from(components, (component) => component / length);
}

/** A promise a test resolves by hand. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A temp root removed by `cleanup`, and fresh data/project folders under it. */
export function attackFolders(prefix: string) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  let count = 0;
  return {
    root,
    /** A dataDir and two project folders. */
    next() {
      count += 1;
      const base = path.join(root, `case-${count}`);
      for (const name of ["a", "b"]) fs.mkdirSync(path.join(base, name), { recursive: true });
      return { dataDir: path.join(base, "data"), projectA: path.join(base, "a"), projectB: path.join(base, "b") };
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A backend a test opens a fresh store on; `storage` is the SQL storage (undefined for the in-memory store). */
export interface AttackBackend {
  readonly label: "memory" | "sqlite" | "postgres";
  open(): Promise<{ store: MemoryIndexStore; storage?: Storage; dispose(): Promise<void> }>;
}

/**
 * The three backends. `start`/`stop` run the PostgreSQL cluster; each
 * `open()` is a fresh store (SQLite: a new file; PostgreSQL: one shared
 * database, a pool per store).
 */
export function attackBackends(prefix: string) {
  const backends = createStoreTestBackends(prefix);
  let files = 0;
  const list: AttackBackend[] = [
    {
      label: "memory",
      open: async () => {
        const store = new InMemoryMemoryIndexStore();
        return { store, dispose: async () => undefined };
      },
    },
    {
      label: "sqlite",
      open: async () => {
        files += 1;
        const dataDir = path.join(backends.temporary, `sqlite-${files}`);
        const storage = await openSqliteStorage({ dataDir });
        const store = await KyselyMemoryIndexStore.open(storage);
        return { store, storage, dispose: () => storage.close() };
      },
    },
    {
      label: "postgres",
      open: async () => {
        const stores = backends.postgresStores("memory_attack", async (storage) => ({ storage, store: await KyselyMemoryIndexStore.open(storage) }));
        const opened = await stores.open();
        return { store: opened.store, storage: opened.storage, dispose: () => stores.dispose(opened) };
      },
    },
  ];
  return { start: () => backends.start(), stop: () => backends.stop(), list, temporary: backends.temporary };
}
