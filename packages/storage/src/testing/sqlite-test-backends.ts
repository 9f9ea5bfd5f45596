import { createRequire } from "node:module";
import path from "node:path";
import { loadNodeSqlite } from "../node-sqlite-driver.js";
import { type SqliteStorageOptions, openSqliteStorage } from "../open-sqlite-storage.js";
import type { SqliteDriverName } from "../sqlite-driver.js";
import type { Storage } from "../storage.js";

/** One SQLite driver the running Node can use, for a store's contract suite on that driver. */
export interface SqliteTestBackend {
  /** The driver every storage of this backend is opened with. */
  readonly driver: SqliteDriverName;
  /** For suite names: `SQLite (node:sqlite)` or `SQLite (better-sqlite3)`. */
  readonly label: string;
  /** Opens a storage with this driver (the options' own `driver` is overridden). */
  open(options: SqliteStorageOptions): Promise<Storage>;
  /** One storage with this driver on a directory of its own, opened on first use and shared by every caller; closed by `close()`. */
  sharedSqlite(): Promise<Storage>;
  /** Closes the shared storage, if it was opened. */
  close(): Promise<void>;
}

/** Whether better-sqlite3 is installed and its native module loads in this Node (it is built for one Node ABI). */
function betterSqlite3Loads(): boolean {
  try {
    const Database = createRequire(import.meta.url)("better-sqlite3") as new (filename: string) => { close(): void };
    new Database(":memory:").close();
    return true;
  } catch {
    return false;
  }
}

/**
 * The SQLite drivers available in the running Node, each as a
 * {@link SqliteTestBackend} whose shared storage lives under
 * `<directory>/sqlite-<driver>`: node:sqlite on Node 22.16+ and 24,
 * better-sqlite3 where it is installed and built for this Node. Every
 * store's contract suite runs once per entry. Throws when this Node has
 * neither, rather than running no SQLite suite.
 *
 * @example
 * for (const sqlite of sqliteTestBackends(temporary)) {
 *   runContract(`Kysely on ${sqlite.label}`, { open: async () => KyselyCronStore.open(await sqlite.sharedSqlite()) });
 * }
 */
export function sqliteTestBackends(directory: string): readonly SqliteTestBackend[] {
  const drivers: SqliteDriverName[] = [];
  if (loadNodeSqlite() !== undefined) drivers.push("node:sqlite");
  if (betterSqlite3Loads()) drivers.push("better-sqlite3");
  // No driver would drop every SQLite suite without a word: refuse instead.
  if (drivers.length === 0)
    throw new Error(`No SQLite driver in Node ${process.version}: use Node 22.16+ or 24 (node:sqlite), or install better-sqlite3 built for this Node.`);
  return drivers.map((driver) => {
    let shared: Promise<Storage> | undefined;
    const open = (options: SqliteStorageOptions) => openSqliteStorage({ ...options, driver });
    return {
      driver,
      label: `SQLite (${driver})`,
      open,
      sharedSqlite: () => (shared ??= open({ dataDir: path.join(directory, `sqlite-${driver.replace(/\W/g, "-")}`) })),
      async close() {
        const storage = await shared?.catch(() => undefined);
        shared = undefined;
        await storage?.close();
      },
    };
  });
}
