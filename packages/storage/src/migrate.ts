import type { Kysely } from "kysely";
import { SdkError } from "@agent-tools/core";
import { MIGRATION_LOCK_TIMEOUT_MS, isSqliteBusy, withMigrationLock } from "./migration-lock.js";
import type { StorageDialect, StorageMigration, StorageMigrationResult } from "./storage.js";

/** Namespaces are package ids: letters, digits, `-` and `_`, at most 40 characters. */
export const STORAGE_NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** The table that records the applied migrations of one namespace. */
export function migrationTableName(namespace: string): string {
  return `agent_tools_migrations_${namespace.toLowerCase().replace(/-/g, "_")}`;
}

/** Checks a namespace and its migration list; throws `SdkError` for host misuse. */
export function validateMigrations(namespace: string, migrations: readonly StorageMigration[]): void {
  if (!STORAGE_NAMESPACE_PATTERN.test(namespace)) {
    throw new SdkError("invalid_options", `Storage namespace "${namespace}" must match ${STORAGE_NAMESPACE_PATTERN}.`);
  }
  const seen = new Set<string>();
  let previous = "";
  for (const migration of migrations) {
    if (typeof migration.name !== "string" || migration.name === "" || seen.has(migration.name)) {
      throw new SdkError("invalid_options", `Migration names of "${namespace}" must be non-empty and unique (got "${migration.name}").`);
    }
    if (migration.name < previous) {
      throw new SdkError("invalid_options", `Migrations of "${namespace}" must be listed in name order: "${migration.name}" follows "${previous}".`);
    }
    seen.add(migration.name);
    previous = migration.name;
  }
}

/**
 * Runs a namespace's pending migrations. Each step runs in a transaction
 * that first writes the namespace's lock row, so concurrent migrators (other
 * connections, other processes, other machines) take turns: the first
 * applies a step, the others wait for the lock (up to
 * {@link MIGRATION_LOCK_TIMEOUT_MS}), find the step recorded and skip it.
 * Works the same on SQLite (`BEGIN IMMEDIATE`, retried with backoff) and
 * PostgreSQL (a row lock held until commit).
 */
export async function runMigrations(
  db: Kysely<any>,
  dialect: StorageDialect,
  namespace: string,
  migrations: readonly StorageMigration[],
  lockTimeoutMs = MIGRATION_LOCK_TIMEOUT_MS,
): Promise<StorageMigrationResult> {
  validateMigrations(namespace, migrations);
  const table = migrationTableName(namespace);
  const lockTable = `${table}_lock`;
  const applied: string[] = [];
  const deadline = Date.now() + lockTimeoutMs;
  // Loaded on first use so importing the SDK does not pay for Kysely.
  const { sql } = await import("kysely");
  try {
    await ensureMigrationTables(db, dialect, table, lockTable, deadline);
    const recorded = new Set((await db.selectFrom(table).select("name").execute()).map((row) => row.name as string));
    for (const migration of migrations) {
      if (recorded.has(migration.name)) continue;
      // Asked again before every attempt: a racer that finished meanwhile spares us the lock.
      const alreadyDone = async (executor: Kysely<any>) =>
        (await executor.selectFrom(table).select("name").where("name", "=", migration.name).executeTakeFirst()) !== undefined;
      const ran = await withMigrationLock(db, dialect, { deadline, alreadyDone }, async (transaction) => {
        await transaction
          .insertInto(lockTable)
          .values({ id: 1, holder: migration.name })
          .onConflict((conflict) => conflict.column("id").doUpdateSet({ holder: sql.ref("excluded.holder") }))
          .execute();
        const done = await transaction.selectFrom(table).select("name").where("name", "=", migration.name).executeTakeFirst();
        if (done !== undefined) return false;
        await migration.up(transaction, dialect);
        await transaction.insertInto(table).values({ name: migration.name, applied_at: new Date().toISOString() }).execute();
        return true;
      }).catch((error: unknown) => {
        throw new MigrationStepError(migration.name, error);
      });
      if (ran === true) applied.push(migration.name);
    }
    return { applied };
  } catch (error) {
    const failed = error instanceof MigrationStepError ? error.migration : undefined;
    const cause = error instanceof MigrationStepError ? error.cause : error;
    const reason = cause instanceof Error ? cause.message : String(cause);
    const busy = isSqliteBusy(cause);
    const waited = busy ? ` (another process held the database's write lock for more than ${Math.round(lockTimeoutMs / 1000)} s)` : "";
    throw new SdkError(
      "storage",
      `Migration ${failed ?? "(setup)"} of "${namespace}" failed: ${reason}${waited}`,
      // A lock held too long passes: `transient` as openSqliteStorage marks its own busy failures, so callers say "retry".
      { namespace, migration: failed, applied, ...(busy ? { reason: "busy", transient: true } : {}) },
      { cause },
    );
  }
}

class MigrationStepError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`Migration ${migration} failed`, { cause });
  }
}

async function ensureMigrationTables(db: Kysely<any>, dialect: StorageDialect, table: string, lockTable: string, deadline: number): Promise<void> {
  const create = async (target: Kysely<any>) => {
    await target.schema
      .createTable(table)
      .ifNotExists()
      .addColumn("name", "text", (column) => column.primaryKey())
      .addColumn("applied_at", "text", (column) => column.notNull())
      .execute();
    await target.schema
      .createTable(lockTable)
      .ifNotExists()
      .addColumn("id", "integer", (column) => column.primaryKey())
      .addColumn("holder", "text", (column) => column.notNull())
      .execute();
  };
  if (dialect === "sqlite") {
    // Creating a table writes: take the lock without a synchronous busy wait, and only when a table is missing.
    const alreadyDone = async (executor: Kysely<any>) => {
      const rows = await executor.selectFrom("sqlite_master").select("name").where("type", "=", "table").where("name", "in", [table, lockTable]).execute();
      return rows.length === 2;
    };
    await withMigrationLock(db, dialect, { deadline, alreadyDone }, create);
    return;
  }
  for (let attempt = 0; ; attempt += 1) {
    try {
      await create(db);
      return;
    } catch (error) {
      // Two first-ever migrators can race on PostgreSQL's catalog; the loser retries and finds the tables.
      if (attempt >= 2) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
  }
}
