/**
 * The Storage helper: one Kysely instance over the embedded SQLite file or a
 * PostgreSQL pool, plus per-package migrations. Each package that persists
 * declares its own store interface and implements it on top of a
 * {@link Storage}, so the same code runs on both dialects.
 */
import type { Kysely } from "kysely";

/** The SQL dialects a {@link Storage} can speak. */
export type StorageDialect = "sqlite" | "postgres";

/**
 * One schema step of a package. Migrations run in array order, each inside a
 * transaction, and are recorded by name so each runs once per database.
 *
 * @example
 * const createTaskState: StorageMigration = {
 *   name: "0001-create-task-state",
 *   async up(db) {
 *     await db.schema.createTable("task_state").addColumn("id", "text", (column) => column.primaryKey()).execute();
 *   },
 * };
 */
export interface StorageMigration {
  /** Stable and unique within the package; names must sort in array order (`0001-...`, `0002-...`). */
  readonly name: string;
  /**
   * Applies the step. Use portable column types (`text`, `integer`,
   * `bigint`, `boolean`); `dialect` tells which database is being migrated
   * when a step must differ.
   */
  up(db: Kysely<any>, dialect: StorageDialect): Promise<void>;
}

/** What {@link Storage.migrate} did. */
export interface StorageMigrationResult {
  /** Names applied by this call, in order; empty when the schema was current. */
  readonly applied: readonly string[];
}

/**
 * An open database. Stores built on it share its connection (SQLite) or pool
 * (PostgreSQL); whoever opened the storage closes it.
 */
export interface Storage {
  /** Which database this is. */
  readonly dialect: StorageDialect;
  /** The query builder. Typed loosely; each store declares its own table types. */
  readonly db: Kysely<any>;
  /** True after {@link Storage.close}. */
  readonly closed: boolean;
  /**
   * Applies a package's pending migrations. Each package (`namespace`, e.g.
   * `tools-tasks`) keeps its own migration history, so packages evolve their
   * tables independently. Idempotent; calls for one namespace run one
   * after the other; a failing step rejects with `SdkError("storage")` and
   * leaves the steps before it applied (on SQLite, a write lock another
   * connection held past the wait sets `details.reason: "busy"` and
   * `details.transient: true`: a later call can succeed).
   */
  migrate(namespace: string, migrations: readonly StorageMigration[]): Promise<StorageMigrationResult>;
  /** Closes the connection or ends the pool. Idempotent. */
  close(): Promise<void>;
}
