import { SdkError } from "@agent-tools/core";
import { type NodeSqliteModule, type SqliteConnection, loadNodeSqlite, openNodeSqliteConnection } from "./node-sqlite-driver.js";
import { BETTER_SQLITE3_DRIVER, type BetterSqlite3Module, type OptionalDriver, loadOptionalDriver } from "./optional-driver.js";
import { wellFormedTextConnection } from "./well-formed-connection.js";

/** A SQLite driver `openSqliteStorage` can open the file with. */
export type SqliteDriverName = "node:sqlite" | "better-sqlite3";

/**
 * Which SQLite driver to use: `"auto"` (the default) takes Node's built-in
 * `node:sqlite` where this Node has it (22.16+, 24+), else better-sqlite3.
 */
export type SqliteDriverChoice = "auto" | SqliteDriverName;

/** Every value the `driver` option takes. */
export const SQLITE_DRIVER_CHOICES: readonly SqliteDriverChoice[] = ["auto", "node:sqlite", "better-sqlite3"];

/**
 * How the drivers are loaded. Tests replace them to simulate a Node without
 * node:sqlite or an install without better-sqlite3; hosts leave them alone.
 */
export interface SqliteDriverLoaders {
  /** Default: imports the better-sqlite3 package. */
  readonly betterSqlite3?: OptionalDriver<BetterSqlite3Module>;
  /** Default: `process.getBuiltinModule("node:sqlite")`, undefined where unusable. */
  readonly nodeSqlite?: () => NodeSqliteModule | undefined;
}

/** A loaded driver: its name and how it opens a file. */
export interface LoadedSqliteDriver {
  readonly name: SqliteDriverName;
  open(filename: string): SqliteConnection;
}

const NODE_SQLITE_HINT = "use Node 22.16+ or 24+ for the built-in node:sqlite";

/** The `driver` option, checked: an unknown value is `SdkError("invalid_options")` naming the valid ones. */
export function parseSqliteDriverChoice(value: unknown): SqliteDriverChoice {
  if (value === undefined) return "auto";
  if (typeof value === "string" && (SQLITE_DRIVER_CHOICES as readonly string[]).includes(value)) return value as SqliteDriverChoice;
  throw new SdkError(
    "invalid_options",
    `openSqliteStorage: unknown SQLite driver ${JSON.stringify(value)}; use one of ${SQLITE_DRIVER_CHOICES.map((choice) => `"${choice}"`).join(", ")}.`,
    { option: "driver", value: String(value), valid: [...SQLITE_DRIVER_CHOICES] },
  );
}

/**
 * Loads the chosen driver. A driver that is missing or does not load
 * rejects with `SdkError("storage")` whose message names it and the fix
 * (`npm install better-sqlite3@12`, `npm rebuild better-sqlite3`, or a Node
 * with node:sqlite) and whose `details.reason` is `driver_missing` or
 * `driver_unloadable` (`details.driver` names the driver).
 */
export async function loadSqliteDriver(choice: SqliteDriverChoice, loaders: SqliteDriverLoaders = {}): Promise<LoadedSqliteDriver> {
  if (choice !== "better-sqlite3") {
    const sqlite = (loaders.nodeSqlite ?? loadNodeSqlite)();
    if (sqlite !== undefined) return { name: "node:sqlite", open: (filename) => openNodeSqliteConnection(sqlite, filename) };
    if (choice === "node:sqlite") {
      throw new SdkError(
        "storage",
        `openSqliteStorage cannot use node:sqlite: Node ${process.version} does not have it; ${NODE_SQLITE_HINT}, or choose driver "better-sqlite3" (npm install better-sqlite3@${BETTER_SQLITE3_DRIVER.version}).`,
        { reason: "driver_missing", driver: "node:sqlite" },
      );
    }
  }
  const betterSqlite3 = loaders.betterSqlite3 ?? BETTER_SQLITE3_DRIVER;
  const viaAuto = choice === "auto" ? `node:sqlite is not in Node ${process.version}; ` : "";
  try {
    const { default: Database } = await loadOptionalDriver(betterSqlite3, "openSqliteStorage");
    // better-sqlite3 loads its native module on the first `new Database`: probe it, so a module built for another Node is classified here.
    new Database(":memory:").close();
    return { name: "better-sqlite3", open: (filename) => wellFormedTextConnection(new Database(filename)) };
  } catch (error) {
    if (error instanceof SdkError && typeof error.details.package === "string") {
      const fix = `npm install ${betterSqlite3.name}@${betterSqlite3.version}`;
      throw new SdkError(
        "storage",
        choice === "auto"
          ? `openSqliteStorage needs a SQLite driver: Node ${process.version} has no node:sqlite and better-sqlite3 is not installed; ${NODE_SQLITE_HINT}, or ${fix}.`
          : `openSqliteStorage needs the optional package better-sqlite3: ${fix}`,
        { ...error.details, reason: "driver_missing", driver: "better-sqlite3" },
        { cause: error.cause },
      );
    }
    throw unloadable(error, viaAuto);
  }
}

/** Why better-sqlite3 failed to load once installed. Exported for tests only (not from the package index). */
export function classifyDriverError(
  error: unknown,
  runtime: string | undefined = nonNodeRuntime(),
): { reason: "unsupported_runtime"; runtime: string } | { reason: "driver_unloadable"; nodedirHint: boolean } {
  const message = error instanceof Error ? error.message : String(error);
  const supported = /not (?:yet )?supported (?:in|by|on) (Bun|Deno)/i.exec(message);
  if (runtime !== undefined || supported !== null) return { reason: "unsupported_runtime", runtime: runtime ?? supported![1]! };
  // "Could not locate the bindings file": never built (install scripts blocked, or node-gyp could not fetch Node's headers).
  return { reason: "driver_unloadable", nodedirHint: /could not locate the bindings file/i.test(message) };
}

/** better-sqlite3 is installed but its native module does not load. */
function unloadable(error: unknown, viaAuto: string): SdkError {
  const message = error instanceof Error ? error.message : String(error);
  const failure = classifyDriverError(error);
  if (failure.reason === "unsupported_runtime") {
    return new SdkError(
      "storage",
      `openSqliteStorage cannot load better-sqlite3: ${message} (better-sqlite3 runs on Node only)`,
      { reason: failure.reason, driver: "better-sqlite3", runtime: failure.runtime },
      { cause: error },
    );
  }
  const fix = failure.nodedirHint
    ? "build it with npm rebuild better-sqlite3 (install scripts allowed; offline, set npm_config_nodedir to a local Node headers directory)"
    : "npm rebuild better-sqlite3 (built for another Node, or not built)";
  return new SdkError(
    "storage",
    `openSqliteStorage cannot load better-sqlite3: ${message} (${viaAuto}to fix: ${fix}, or ${NODE_SQLITE_HINT})`,
    { reason: failure.reason, driver: "better-sqlite3", ...(failure.nodedirHint ? { nodedirHint: true } : {}) },
    { cause: error },
  );
}

/** Bun and Deno by name; better-sqlite3 is a Node-API addon built for Node. */
function nonNodeRuntime(): string | undefined {
  if (typeof (process.versions as { bun?: string }).bun === "string") return "Bun";
  if (typeof (globalThis as { Deno?: unknown }).Deno === "object") return "Deno";
  return undefined;
}
