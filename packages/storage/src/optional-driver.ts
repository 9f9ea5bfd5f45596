import type { PostgresPool } from "kysely";
import { SdkError } from "@agent-tools/core";
import type { SqliteConnection } from "./node-sqlite-driver.js";
import { isModuleNotFoundError } from "@agent-tools/core/internal";

/** A database driver this package takes as an optional peer dependency. */
export interface OptionalDriver<Module> {
  /** The npm package, e.g. `better-sqlite3`. */
  readonly name: string;
  /** The version this package is tested on, for the install hint. */
  readonly version: string;
  load(): Promise<Module>;
}

/**
 * The part of better-sqlite3 this package uses, typed here so that the
 * package's declarations never name `better-sqlite3` (a consumer without it
 * or its types still type-checks with `skipLibCheck: false`).
 */
export interface BetterSqlite3Module {
  readonly default: new (filename: string) => SqliteConnection;
}

/** The part of pg this package uses (see {@link BetterSqlite3Module}). */
export interface PgModule {
  readonly default: { readonly Pool: new (config: { connectionString: string; max: number }) => PostgresPool };
}

/** better-sqlite3, for {@link openSqliteStorage}; the version is the major the install hint names. */
export const BETTER_SQLITE3_DRIVER: OptionalDriver<BetterSqlite3Module> = {
  name: "better-sqlite3",
  version: "12",
  load: async () => ({ default: (await import("better-sqlite3")).default as unknown as BetterSqlite3Module["default"] }),
};

/** pg, for {@link openPostgresStorage}. */
export const PG_DRIVER: OptionalDriver<PgModule> = {
  name: "pg",
  version: "8.23.1",
  load: async () => ({ default: (await import("pg")).default as unknown as PgModule["default"] }),
};

/**
 * Imports an optional driver when its opener is called. A driver that is not
 * installed rejects with `SdkError("storage")` naming the package and the
 * command that installs it; `details.package` holds its name.
 */
export async function loadOptionalDriver<Module>(driver: OptionalDriver<Module>, opener: string): Promise<Module> {
  try {
    return await driver.load();
  } catch (error) {
    if (!isModuleNotFoundError(error, driver.name)) throw error;
    throw new SdkError(
      "storage",
      `${opener} needs the optional package ${driver.name}: npm install ${driver.name}@${driver.version}`,
      { package: driver.name, version: driver.version },
      { cause: error },
    );
  }
}
