import type { PostgresPool } from "kysely";
import { SdkError } from "@agent-tools/core";
import { createKyselyStorage } from "./kysely-storage.js";
import { PG_DRIVER, loadOptionalDriver } from "./optional-driver.js";
import type { Storage } from "./storage.js";

/** Options of {@link openPostgresStorage}: give `connectionString` or `pool`. */
export interface PostgresStorageOptions {
  /** `postgres://user:password@host:port/database`; the storage creates and ends its own pool. */
  connectionString?: string;
  /** Maximum connections of the storage's own pool; default 10. */
  maxConnections?: number;
  /**
   * A pool the host owns (a `pg.Pool` or anything with the same `connect` /
   * `end`). The storage never ends it: `close()` leaves it open.
   */
  pool?: PostgresPool;
}

/**
 * Opens a PostgreSQL database through a `pg` pool (pg is an optional peer
 * dependency, imported only for `connectionString`), for hosts that run many
 * agents on many machines. Checks the connection before returning.
 *
 * @example
 * const storage = await openPostgresStorage({ connectionString: process.env.DATABASE_URL });
 * await storage.migrate("my-package", migrations);
 * await storage.close();
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<Storage> {
  let pool: PostgresPool;
  if (options.pool !== undefined) {
    const hostPool = options.pool;
    // Kysely ends the pool on destroy; a host's pool stays the host's.
    pool = { connect: () => hostPool.connect(), end: async () => undefined };
  } else if (typeof options.connectionString === "string" && options.connectionString !== "") {
    const { default: pg } = await loadOptionalDriver(PG_DRIVER, "openPostgresStorage");
    pool = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
  } else {
    throw new SdkError("invalid_options", "openPostgresStorage needs `connectionString` or `pool`.");
  }
  const { Kysely, PostgresDialect, sql } = await import("kysely"); // loaded on first use: keeps SDK start-up light
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  try {
    // Through Kysely, so its driver owns the pool from now on and ends it on destroy.
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw new SdkError("storage", `Cannot connect to PostgreSQL: ${(error as Error).message}`, {}, { cause: error });
  }
  return createKyselyStorage(db, "postgres");
}
