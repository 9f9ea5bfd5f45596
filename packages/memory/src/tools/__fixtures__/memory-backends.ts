// The index backends every tool test runs on.
import fs from "node:fs";
import path from "node:path";
import { type Storage, openSqliteStorage } from "@agent-tools/storage";
import { KyselyMemoryIndexStore } from "../../stores/kysely-memory-index-store.js";
import { type MemoryTestBackend, inMemoryBackend } from "./memory-registry.js";

/** SQLite through the Kysely store, in `<directory>/index.sqlite`; the store's close closes its storage too. */
export const sqliteBackend: MemoryTestBackend = {
  name: "sqlite",
  async open(directory) {
    const storage: Storage = await openSqliteStorage({ filename: path.join(directory, "index.sqlite") });
    const store = await KyselyMemoryIndexStore.open(storage);
    const close = store.close?.bind(store);
    store.close = async () => {
      await close?.();
      await storage.close();
    };
    return store;
  },
  async wipe(directory) {
    for (const name of fs.readdirSync(directory)) if (name.startsWith("index.sqlite")) fs.rmSync(path.join(directory, name));
  },
};

/** In-memory, and SQLite through the Kysely store. */
export const MEMORY_TEST_BACKENDS: readonly MemoryTestBackend[] = [inMemoryBackend, sqliteBackend];
