/**
 * @agent-tools/storage: the Storage helper on Kysely (SQLite through Node's
 * built-in node:sqlite, or better-sqlite3 where Node has none; PostgreSQL
 * through pg; better-sqlite3 and pg are optional peers, imported by their
 * opener), per-package migrations, and one shared SQLite storage per
 * file and process (`leaseSqliteStorage`).
 *
 * @packageDocumentation
 */
export type { Storage, StorageDialect, StorageMigration } from "./storage.js";
export { createKyselyStorage } from "./kysely-storage.js";
export { openSqliteStorage } from "./open-sqlite-storage.js";
export type { SqliteStorageOptions } from "./open-sqlite-storage.js";
export type { SqliteDriverChoice } from "./sqlite-driver.js";
export { openPostgresStorage } from "./open-postgres-storage.js";
export type { PostgresStorageOptions } from "./open-postgres-storage.js";
export { openStorage } from "./open-storage.js";
export type { StorageOptions } from "./open-storage.js";
export { leaseSqliteStorage } from "./shared-sqlite-storage.js";
export type { SharedStorageLease, SqliteLeaseOptions } from "./shared-sqlite-storage.js";
