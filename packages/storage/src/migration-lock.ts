import type { Kysely } from "kysely";
import type { StorageDialect } from "./storage.js";

/** How long a migrator waits for another migrator's lock before it gives up: 60 s. */
export const MIGRATION_LOCK_TIMEOUT_MS = 60_000;

/** What {@link withMigrationLock} needs besides the work. */
export interface MigrationLockOptions {
  /** Epoch milliseconds after which waiting for the lock fails. */
  readonly deadline: number;
  /**
   * Asked before every attempt to take the lock: true when another migrator
   * has done the work meanwhile, so the lock is not taken at all. Query
   * through `executor`: on SQLite it is the one connection held for the
   * attempts, and the storage's own queue would wait for it forever.
   */
  readonly alreadyDone?: (executor: Kysely<any>) => Promise<boolean>;
}

/** The answer of {@link withMigrationLock} when `alreadyDone` said yes. */
export const SKIPPED = Symbol("skipped");

/**
 * Runs `work` in a transaction that holds the database's write lock.
 *
 * PostgreSQL: a plain transaction; the caller's lock-row write waits on the
 * server without blocking this process.
 *
 * SQLite: `BEGIN IMMEDIATE` with the busy timeout set to 0 for that one
 * statement, retried with backoff until the deadline. better-sqlite3 waits
 * synchronously: with the connection's busy timeout in force, a second
 * connection of this process would freeze the very thread whose open
 * transaction it waits for, then fail "database is locked". A deferred
 * `BEGIN` could also fail at once with SQLITE_BUSY_SNAPSHOT, which no busy
 * timeout retries.
 */
export async function withMigrationLock<T>(
  db: Kysely<any>,
  dialect: StorageDialect,
  options: MigrationLockOptions,
  work: (transaction: Kysely<any>) => Promise<T>,
): Promise<T | typeof SKIPPED> {
  if (dialect !== "sqlite") {
    if (await options.alreadyDone?.(db)) return SKIPPED;
    return db.transaction().execute(work);
  }
  const { sql } = await import("kysely");
  return db.connection().execute(async (connection) => {
    for (let attempt = 0; ; attempt += 1) {
      if (await options.alreadyDone?.(connection)) return SKIPPED;
      const previous = await sql<{ timeout: number }>`pragma busy_timeout`.execute(connection);
      const timeout = Number(previous.rows[0]?.timeout ?? 0);
      let began = false;
      try {
        await sql`pragma busy_timeout = 0`.execute(connection);
        await sql`begin immediate`.execute(connection);
        began = true;
      } catch (error) {
        if (!isSqliteBusy(error) || Date.now() >= options.deadline) throw error;
      } finally {
        await sql.raw(`pragma busy_timeout = ${Math.max(0, Math.floor(timeout))}`).execute(connection);
      }
      if (!began) {
        // Jittered backoff, 5 ms doubling to 200 ms: racers do not retry in lockstep.
        const delay = Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random() / 2);
        await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, options.deadline - Date.now()))));
        continue;
      }
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => undefined);
        throw error;
      }
    }
  });
}

/** True for SQLite's "database is locked" family (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, ...). */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
