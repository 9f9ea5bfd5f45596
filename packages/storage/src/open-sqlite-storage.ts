import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { createKyselyStorage } from "./kysely-storage.js";
import type { SqliteConnection } from "./node-sqlite-driver.js";
import { createPrivateDatabaseFile, createPrivateDirectory } from "./private-database-file.js";
import { type SqliteDriverChoice, type SqliteDriverLoaders, type SqliteDriverName, loadSqliteDriver, parseSqliteDriverChoice } from "./sqlite-driver.js";
import type { Storage } from "./storage.js";

/** The embedded database's file name inside `dataDir`. */
export const DEFAULT_SQLITE_FILE_NAME = "agent-tools.sqlite";

/** Options of {@link openSqliteStorage}: give `filename` or `dataDir`. */
export interface SqliteStorageOptions {
  /**
   * The SDK's data directory; the file is `<dataDir>/agent-tools.sqlite`.
   * Created when missing with mode 0700 (an existing one keeps its mode).
   */
  dataDir?: string;
  /** An explicit file path (its missing directories are created 0700), or `:memory:`. Wins over `dataDir`. */
  filename?: string;
  /** How long a statement waits for another connection's write lock; default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * The SQLite driver: `"auto"` (default) uses Node's built-in `node:sqlite`
   * where this Node has it (22.16+, 24+) and better-sqlite3 (an optional
   * peer dependency) elsewhere; `"node:sqlite"` or `"better-sqlite3"` insist
   * on one. Any other value is `SdkError("invalid_options")`.
   */
  driver?: SqliteDriverChoice;
  /** How the drivers load; for tests that simulate a Node without node:sqlite or a failed import of better-sqlite3. */
  driverLoaders?: SqliteDriverLoaders;
}

/**
 * Why the embedded database could not open: `details.reason` of the
 * `SdkError("storage")` that {@link openSqliteStorage} rejects with.
 * Only `busy` is transient (`details.transient: true`); the others do not heal
 * by retrying until the host changes something.
 * - `driver_missing`: the chosen driver is not there (`details.driver`): node:sqlite in this
 *   Node, or better-sqlite3 not installed (`details.package`, `details.version`).
 * - `driver_unloadable`: better-sqlite3 is installed but its native module does not load (not built,
 *   built for another Node); `details.nodedirHint` when the build never produced it.
 * - `unsupported_runtime`: Bun, Deno or another runtime better-sqlite3 does not run on (`details.runtime`).
 * - `data_dir_unwritable`: the directory or file cannot be created or written.
 * - `busy`: another connection held the lock past the deadline.
 * - `other`: anything else (the cause says what).
 */
export type SqliteOpenFailureReason = "driver_missing" | "driver_unloadable" | "unsupported_runtime" | "data_dir_unwritable" | "busy" | "other";

/**
 * Opens the embedded SQLite database in WAL mode (readers never block the
 * writer; several processes may share the file), with foreign keys on and a
 * busy timeout, through Node's built-in `node:sqlite` where this Node has it
 * and better-sqlite3 (an optional peer dependency) elsewhere; `driver`
 * chooses. Every failure rejects with `SdkError("storage")` whose
 * `details.reason` ({@link SqliteOpenFailureReason}) and `details.transient`
 * classify it; a missing driver's message says how to get one. A file it
 * creates is mode 0600 whatever the umask (and so are SQLite's `-wal`, `-shm`
 * and `-journal` files beside it), a directory it creates 0700; an existing
 * file or directory keeps its mode.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir: "/home/me/.agent-tools" });
 * await storage.migrate("my-package", migrations);
 * await storage.close();
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const choice = parseSqliteDriverChoice(options.driver);
  const filename = resolveSqliteFilename(options);
  try {
    if (filename !== ":memory:") createPrivateDirectory(path.dirname(filename));
  } catch (error) {
    throw openFailure(`Cannot create the directory of the SQLite database ${filename}`, filename, error, classifyDatabaseError(error));
  }
  let driver: Awaited<ReturnType<typeof loadSqliteDriver>>;
  try {
    driver = await loadSqliteDriver(choice, options.driverLoaders);
  } catch (error) {
    const reason = (error as SdkError).details?.reason;
    throw openFailure(undefined, filename, error, { reason: typeof reason === "string" ? (reason as SqliteOpenFailureReason) : "other" });
  }
  let database: SqliteConnection;
  try {
    // Made 0600 here, after the driver loaded (a missing driver leaves no empty file behind); SQLite's side files copy its mode.
    if (filename !== ":memory:") createPrivateDatabaseFile(filename);
    database = driver.open(filename);
  } catch (error) {
    throw openFailure(`Cannot open the SQLite database ${filename}`, filename, error, classifyDatabaseError(error), driver.name);
  }
  try {
    await configureWithRetry(database, filename, options.busyTimeoutMs ?? 5000);
  } catch (error) {
    database.close();
    throw openFailure(`Cannot configure the SQLite database ${filename}`, filename, error, classifyDatabaseError(error), driver.name);
  }
  const { Kysely, SqliteDialect } = await import("kysely"); // loaded on first use: keeps SDK start-up light
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  // Kysely's driver closes the database only if a query ran; a storage closed unused must not keep the file open.
  return createKyselyStorage(db, "sqlite", async () => {
    if (database.open) database.close();
  });
}

interface Classified {
  reason: SqliteOpenFailureReason;
  details?: Record<string, unknown>;
}

/** The SdkError of a failed open; `prefix` undefined keeps the cause's own message (the driver's install hint). */
function openFailure(prefix: string | undefined, filename: string, cause: unknown, failure: Classified, driver?: SqliteDriverName): SdkError {
  const causeMessage = cause instanceof Error ? cause.message : String(cause);
  const causeDetails = cause instanceof SdkError ? cause.details : {};
  return new SdkError(
    "storage",
    prefix === undefined ? causeMessage : `${prefix}: ${causeMessage}`,
    {
      ...causeDetails,
      ...(driver === undefined ? {} : { driver }),
      filename,
      reason: failure.reason,
      transient: failure.reason === "busy",
      ...failure.details,
    },
    { cause },
  );
}

const UNWRITABLE_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOTDIR", "EEXIST", "EISDIR", "ENOENT"]);

/** Why creating, opening or configuring the file failed. Exported for tests only. */
export function classifyDatabaseError(error: unknown): Classified {
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return { reason: "busy" };
  if (UNWRITABLE_CODES.has(code) || code.startsWith("SQLITE_CANTOPEN") || code.startsWith("SQLITE_READONLY") || code === "SQLITE_PERM") {
    return { reason: "data_dir_unwritable" };
  }
  return { reason: "other" };
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
