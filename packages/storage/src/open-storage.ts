import { SdkError } from "@agent-tools/core";
import { type PostgresStorageOptions, openPostgresStorage } from "./open-postgres-storage.js";
import { type SqliteStorageOptions, openSqliteStorage } from "./open-sqlite-storage.js";
import type { Storage } from "./storage.js";

/** Which database to open: the embedded SQLite file, or PostgreSQL. */
export type StorageOptions = ({ dialect: "sqlite" } & SqliteStorageOptions) | ({ dialect: "postgres" } & PostgresStorageOptions);

/**
 * Opens a {@link Storage} for either dialect; the one entry point a host's
 * configuration can feed.
 *
 * @example
 * const storage = await openStorage(process.env.DATABASE_URL
 *   ? { dialect: "postgres", connectionString: process.env.DATABASE_URL }
 *   : { dialect: "sqlite", dataDir });
 */
export function openStorage(options: StorageOptions): Promise<Storage> {
  switch (options.dialect) {
    case "sqlite":
      return openSqliteStorage(options);
    case "postgres":
      return openPostgresStorage(options);
    default:
      return Promise.reject(new SdkError("invalid_options", `Unknown storage dialect "${(options as { dialect?: unknown }).dialect}".`));
  }
}
