import fs from "node:fs";
import path from "node:path";
import { SdkError } from "@agent-tools/core";
import { createKyselyStorage } from "./kysely-storage.js";
import { BETTER_SQLITE3_DRIVER, type OptionalDriver, loadOptionalDriver } from "./optional-driver.js";
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
  /** The better-sqlite3 loader; for tests that simulate a failed import. Default: `import("better-sqlite3")`. */
  driver?: OptionalDriver<{ default: BetterSqlite3 }>;
}

/**
 * Why the embedded database could not open: `details.reason` of the
 * `SdkError("storage")` that {@link openSqliteStorage} rejects with.
 * Only `busy` is transient (`details.transient: true`); the others do not heal
 * by retrying until the host changes something.
 * - `driver_missing`: better-sqlite3 is not installed (`details.package`, `details.version`).
 * - `driver_unloadable`: it is installed but its native module does not load (not built,
 *   built for another Node); `details.nodedirHint` when the build never produced it.
 * - `unsupported_runtime`: Bun, Deno or another runtime better-sqlite3 does not run on (`details.runtime`).
 * - `data_dir_unwritable`: the directory or file cannot be created or written.
 * - `busy`: another connection held the lock past the deadline.
 * - `other`: anything else (the cause says what).
 */
export type SqliteOpenFailureReason = "driver_missing" | "driver_unloadable" | "unsupported_runtime" | "data_dir_unwritable" | "busy" | "other";

/**
 * Opens the embedded SQLite database with better-sqlite3 (an optional peer
 * dependency, imported here) in WAL mode (readers never block the writer;
 * several processes may share the file), with foreign keys on and a busy
 * timeout. Every failure rejects with `SdkError("storage")` whose
 * `details.reason` ({@link SqliteOpenFailureReason}) and `details.transient`
 * classify it; a missing driver's message names the package to install.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir: "/home/me/.agent-tools" });
 * await storage.migrate("my-package", migrations);
 * await storage.close();
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<Storage> {
  const filename = resolveSqliteFilename(options);
  const driver = options.driver ?? BETTER_SQLITE3_DRIVER;
  try {
    if (filename !== ":memory:") fs.mkdirSync(path.dirname(filename), { recursive: true });
  } catch (error) {
    throw openFailure(`Cannot create the directory of the SQLite database ${filename}`, filename, error, classifyDatabaseError(error));
  }
  let Database: BetterSqlite3;
  try {
    ({ default: Database } = await loadOptionalDriver(driver, "openSqliteStorage"));
  } catch (error) {
    const failure = classifyDriverError(error);
    if (error instanceof SdkError) throw openFailure(undefined, filename, error, failure);
    throw openFailure(`openSqliteStorage cannot load ${driver.name}`, filename, error, failure);
  }
  let database: InstanceType<BetterSqlite3>;
  try {
    database = new Database(filename);
  } catch (error) {
    throw openFailure(`Cannot open the SQLite database ${filename}`, filename, error, classifyDatabaseError(error));
  }
  try {
    await configureWithRetry(database, filename, options.busyTimeoutMs ?? 5000);
  } catch (error) {
    database.close();
    throw openFailure(`Cannot configure the SQLite database ${filename}`, filename, error, classifyDatabaseError(error));
  }
  const { Kysely, SqliteDialect } = await import("kysely"); // loaded on first use: keeps SDK start-up light
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  // Kysely's driver closes the database only if a query ran; a storage closed unused must not keep the file open.
  return createKyselyStorage(db, "sqlite", async () => {
    if (database.open) database.close();
  });
}

type BetterSqlite3 = typeof import("better-sqlite3");

interface Classified {
  reason: SqliteOpenFailureReason;
  details?: Record<string, unknown>;
}

/** The SdkError of a failed open; `prefix` undefined keeps the cause's own message (the driver's install hint). */
function openFailure(prefix: string | undefined, filename: string, cause: unknown, failure: Classified): SdkError {
  const causeMessage = cause instanceof Error ? cause.message : String(cause);
  const causeDetails = cause instanceof SdkError ? cause.details : {};
  return new SdkError(
    "storage",
    prefix === undefined ? causeMessage : `${prefix}: ${causeMessage}`,
    { ...causeDetails, filename, reason: failure.reason, transient: failure.reason === "busy", ...failure.details },
    { cause },
  );
}

/** Bun and Deno by name; better-sqlite3 is a Node-API addon built for Node. */
function nonNodeRuntime(): string | undefined {
  if (typeof (process.versions as { bun?: string }).bun === "string") return "Bun";
  if (typeof (globalThis as { Deno?: unknown }).Deno === "object") return "Deno";
  return undefined;
}

/**
 * Why importing the driver failed. Exported for tests only (not from the
 * package index): the failures of a real install cannot all be produced here.
 */
export function classifyDriverError(error: unknown, runtime: string | undefined = nonNodeRuntime()): Classified {
  if (error instanceof SdkError && typeof error.details.package === "string") return { reason: "driver_missing" };
  const message = error instanceof Error ? error.message : String(error);
  const supported = /not (?:yet )?supported (?:in|by|on) (Bun|Deno)/i.exec(message);
  if (runtime !== undefined || supported !== null) return { reason: "unsupported_runtime", details: { runtime: runtime ?? supported![1] } };
  // "Could not locate the bindings file": the addon was never built (install scripts blocked, or node-gyp could not fetch Node's headers).
  return { reason: "driver_unloadable", details: /could not locate the bindings file/i.test(message) ? { nodedirHint: true } : {} };
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
