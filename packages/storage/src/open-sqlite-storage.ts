import fs from "node:fs";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { createKyselyStorage } from "./kysely-storage.js";
import { BETTER_SQLITE3_DRIVER, loadOptionalDriver } from "./optional-driver.js";
import type { Storage } from "./storage.js";

/** The embedded database's file name inside `dataDir`. */
export const DEFAULT_SQLITE_FILE_NAME = "agent-tools.sqlite";

/** Options of {@link openSqliteStorage}: give `filename` or `dataDir`. */
export interface SqliteStorageOptions {
  /** The SDK's data directory; the file is `<dataDir>/agent-tools.sqlite`. Created when missing. */
  dataDir?: string;
  /** An explicit file path (its directory is created), or `:memory:`. Wins over `dataDir`. */
  filename?: string;
  /** How long a statement waits for another connection's write lock; default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * Opens the embedded SQLite database with better-sqlite3 (an optional peer
 * dependency, imported here; when it is missing this rejects with
 * `SdkError("storage")` naming the package to install) in WAL mode
 * (readers never block the writer; several processes may share the file),
 * with foreign keys on and a busy timeout.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir: "/home/me/.agent-tools" });
 * await storage.migrate("my-package", migrations);
 * await storage.close();
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const filename = resolveSqliteFilename(options);
  if (filename !== ":memory:") fs.mkdirSync(path.dirname(filename), { recursive: true });
  const { default: Database } = await loadOptionalDriver(BETTER_SQLITE3_DRIVER, "openSqliteStorage");
  let database: InstanceType<typeof Database>;
  try {
    database = new Database(filename);
  } catch (error) {
    throw new SdkError("storage", `Cannot open the SQLite database ${filename}: ${(error as Error).message}`, { filename }, { cause: error });
  }
  try {
    await configureWithRetry(database, filename, options.busyTimeoutMs ?? 5000);
  } catch (error) {
    database.close();
    throw new SdkError("storage", `Cannot configure the SQLite database ${filename}: ${(error as Error).message}`, { filename }, { cause: error });
  }
  const { Kysely, SqliteDialect } = await import("kysely"); // loaded on first use: keeps SDK start-up light
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  return createKyselyStorage(db, "sqlite");
}

/** The file {@link openSqliteStorage} would open for these options. */
export function resolveSqliteFilename(options: SqliteStorageOptions): string {
  if (options.filename !== undefined) return options.filename === ":memory:" ? options.filename : path.resolve(options.filename);
  if (options.dataDir === undefined) throw new SdkError("invalid_options", "openSqliteStorage needs `dataDir` or `filename`.");
  return path.join(path.resolve(options.dataDir), DEFAULT_SQLITE_FILE_NAME);
}

/** How long opening waits for another process that is setting up the same fresh file. */
const CONFIGURE_DEADLINE_MS = 30_000;

/**
 * Sets the connection's pragmas. Switching a fresh file to WAL needs an
 * exclusive lock, and SQLite answers SQLITE_BUSY at once (without its busy
 * handler) while another process is doing the same, so that case is retried
 * with a short jittered back-off instead of failing.
 */
async function configureWithRetry(database: { pragma(source: string): unknown }, filename: string, busyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + CONFIGURE_DEADLINE_MS;
  for (let attempt = 0; ; attempt += 1) {
    try {
      database.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
      if (filename !== ":memory:") database.pragma("journal_mode = WAL");
      database.pragma("synchronous = NORMAL");
      database.pragma("foreign_keys = ON");
      return;
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (!code.startsWith("SQLITE_BUSY") && !code.startsWith("SQLITE_LOCKED")) throw error;
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * 2 ** Math.min(attempt, 5)) * (0.5 + Math.random())));
    }
  }
}
