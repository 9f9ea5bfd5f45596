import { type SqliteStorageOptions, openSqliteStorage, resolveSqliteFilename } from "./open-sqlite-storage.js";
import type { Storage } from "./storage.js";

/** One registry's hold on the process-wide SQLite storage of a file. */
export interface SharedStorageLease {
  /** The absolute file (or `:memory:`, which is never shared). */
  readonly filename: string;
  /**
   * The storage, opened on the first call of any lease on the same file; a
   * failed open is retried by the next call. Rejects after `release()`.
   */
  get(): Promise<Storage>;
  /** Gives the hold back; the last release of a file closes its storage. Idempotent. */
  release(): Promise<void>;
}

interface SharedEntry {
  leases: number;
  opening: Promise<Storage> | undefined;
}

// Process-wide on purpose: one SQLite connection per file and process, whichever
// registry or package asks (tasks today; memory, cron, subagents later). Entries
// exist only while a lease is held, so nothing outlives the last registry.
const shared = new Map<string, SharedEntry>();

/**
 * Leases the process-wide storage of `<dataDir>/agent-tools.sqlite` (or
 * `filename`): every lease on one file gets the same {@link Storage}, opened
 * lazily and closed when the last lease is released. Stores built on it must
 * not close it.
 *
 * @example
 * const lease = leaseSqliteStorage({ dataDir });
 * const store = await KyselyTaskStateStore.open(await lease.get());
 * // ... on registry close:
 * await lease.release();
 */
export function leaseSqliteStorage(options: SqliteStorageOptions): SharedStorageLease {
  const filename = resolveSqliteFilename(options);
  if (filename === ":memory:") return privateLease(options);
  let entry = shared.get(filename);
  if (entry === undefined) {
    entry = { leases: 0, opening: undefined };
    shared.set(filename, entry);
  }
  const held = entry;
  held.leases += 1;
  let released = false;
  return {
    filename,
    get() {
      if (released) return Promise.reject(new Error(`This lease of ${filename} was released.`));
      held.opening ??= openSqliteStorage({ ...options, filename }).catch((error: unknown) => {
        held.opening = undefined;
        throw error;
      });
      return held.opening;
    },
    async release() {
      if (released) return;
      released = true;
      held.leases -= 1;
      if (held.leases > 0) return;
      if (shared.get(filename) === held) shared.delete(filename);
      const storage = await held.opening?.catch(() => undefined);
      await storage?.close();
    },
  };
}

/** A `:memory:` database is one per connection: sharing it would change what it means. */
function privateLease(options: SqliteStorageOptions): SharedStorageLease {
  let opening: Promise<Storage> | undefined;
  let released = false;
  return {
    filename: ":memory:",
    get() {
      if (released) return Promise.reject(new Error("This lease of :memory: was released."));
      opening ??= openSqliteStorage(options);
      return opening;
    },
    async release() {
      if (released) return;
      released = true;
      const storage = await opening?.catch(() => undefined);
      await storage?.close();
    },
  };
}
