import { SdkError } from "@agent-tools/core";
import { isModuleNotFoundError } from "@agent-tools/core/internal";

/** A database driver this package takes as an optional peer dependency. */
export interface OptionalDriver<Module> {
  /** The npm package, e.g. `better-sqlite3`. */
  readonly name: string;
  /** The version this package is tested on, for the install hint. */
  readonly version: string;
  load(): Promise<Module>;
}

type BetterSqlite3 = typeof import("better-sqlite3");
type Pg = typeof import("pg");

/** better-sqlite3, for {@link openSqliteStorage}. */
export const BETTER_SQLITE3_DRIVER: OptionalDriver<{ default: BetterSqlite3 }> = {
  name: "better-sqlite3",
  version: "12.11.1",
  load: async () => ({ default: (await import("better-sqlite3")).default }),
};

/** pg, for {@link openPostgresStorage}. */
export const PG_DRIVER: OptionalDriver<{ default: Pg }> = {
  name: "pg",
  version: "8.23.1",
  load: async () => ({ default: (await import("pg")).default as Pg }),
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
