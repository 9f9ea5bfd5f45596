import { type Kysely, type Migration, Migrator } from "kysely";
import { SdkError } from "../errors.js";
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
 * Runs a namespace's pending migrations with Kysely's Migrator, using a
 * migration table and lock table of the namespace's own.
 */
export async function runMigrations(
  db: Kysely<any>,
  dialect: StorageDialect,
  namespace: string,
  migrations: readonly StorageMigration[],
): Promise<StorageMigrationResult> {
  validateMigrations(namespace, migrations);
  const record: Record<string, Migration> = {};
  for (const migration of migrations) {
    record[migration.name] = {
      // PostgreSQL: the Migrator runs each step in a transaction of its own.
      // SQLite: Kysely runs steps outside a transaction, so the step opens one.
      up: dialect === "sqlite" ? (connection) => connection.transaction().execute((transaction) => migration.up(transaction, dialect)) : (transaction) => migration.up(transaction, dialect),
    };
  }
  const table = migrationTableName(namespace);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => record },
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
  });
  const applied: string[] = [];
  // One step per call, so a failing step leaves the steps before it applied.
  for (;;) {
    const { error, results = [] } = await migrator.migrateUp();
    if (error !== undefined) {
      const failed = results.find((result) => result.status === "Error")?.migrationName;
      const reason = error instanceof Error ? error.message : String(error);
      throw new SdkError("storage", `Migration ${failed ?? "(setup)"} of "${namespace}" failed: ${reason}`, { namespace, migration: failed, applied }, { cause: error });
    }
    const done = results.filter((result) => result.status === "Success").map((result) => result.migrationName);
    if (done.length === 0) return { applied };
    applied.push(...done);
  }
}
