import type { SqliteStatement } from "kysely";
import { withSqliteCodeName } from "./sqlite-error-codes.js";

/** The part of the `node:sqlite` module this package uses (structural: no dependency on Node's own type version). */
export interface NodeSqliteModule {
  readonly DatabaseSync: new (path: string) => NodeSqliteDatabaseSync;
  readonly StatementSync: { readonly prototype: object };
}

interface NodeSqliteDatabaseSync {
  readonly isOpen: boolean;
  prepare(sql: string): NodeSqliteStatementSync;
  exec(sql: string): void;
  close(): void;
}

interface NodeSqliteStatementSync {
  setReadBigInts(enabled: boolean): void;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...parameters: unknown[]): Iterator<unknown>;
  columns(): readonly unknown[];
}

/**
 * An open SQLite connection as `openSqliteStorage` uses it, whichever driver
 * opened it: Kysely's `SqliteDatabase` (`prepare`, `close`) plus `pragma` and
 * `open`, as better-sqlite3's `Database` has them.
 */
export interface SqliteConnection {
  /** False once closed. */
  readonly open: boolean;
  /** Runs `pragma <source>`. */
  pragma(source: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): void;
}

/** Node 22's warning on the first load of node:sqlite (Node 24 prints none). */
const SQLITE_EXPERIMENTAL_WARNING = /^SQLite is an experimental feature/;

function isSqliteExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const message = typeof warning === "string" ? warning : warning instanceof Error ? warning.message : "";
  const type =
    typeof typeOrOptions === "string"
      ? typeOrOptions
      : typeof (typeOrOptions as { type?: unknown } | undefined)?.type === "string"
        ? (typeOrOptions as { type: string }).type
        : warning instanceof Error
          ? warning.name
          : "Warning";
  return type === "ExperimentalWarning" && SQLITE_EXPERIMENTAL_WARNING.test(message);
}

/**
 * Loads `node:sqlite` synchronously (`process.getBuiltinModule`), or returns
 * undefined where this Node has no usable one: Node 20, Node 22 before
 * 22.16 (no `StatementSync#columns`, which tells a reading statement from a
 * writing one), or a runtime without `getBuiltinModule`. Node 22's
 * "SQLite is an experimental feature" warning is dropped during the load;
 * every other warning passes, and `process.emitWarning` is restored before
 * this returns.
 */
export function loadNodeSqlite(): NodeSqliteModule | undefined {
  const getBuiltinModule = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof getBuiltinModule !== "function") return undefined;
  const emitWarning = process.emitWarning;
  process.emitWarning = function emitWarningExceptSqlite(this: unknown, warning: unknown, ...rest: unknown[]): void {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    Reflect.apply(emitWarning, process, [warning, ...rest]);
  } as typeof process.emitWarning;
  let loaded: unknown;
  try {
    loaded = getBuiltinModule.call(process, "node:sqlite");
  } catch {
    return undefined; // Node 20 throws or returns undefined for an unknown builtin
  } finally {
    process.emitWarning = emitWarning;
  }
  const candidate = loaded as Partial<NodeSqliteModule> | undefined;
  if (typeof candidate?.DatabaseSync !== "function" || typeof candidate.StatementSync?.prototype !== "object") return undefined;
  if (typeof (candidate.StatementSync.prototype as { columns?: unknown }).columns !== "function") return undefined;
  return candidate as NodeSqliteModule;
}

/** Runs a node:sqlite call; its errors get better-sqlite3's `code` names. */
function call<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw withSqliteCodeName(error);
  }
}

/**
 * A value as better-sqlite3 returns it: a blob as a Buffer, an integer as a
 * number (past 2^53 rounded, as better-sqlite3 rounds it; node:sqlite throws
 * on reading such an integer as a number, which left a table with one such
 * value unreadable, so the statements read integers as BigInt).
 */
function plainValue(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}

/** A row as better-sqlite3 returns it: a plain object, blobs as Buffers, integers as numbers. */
function plainRow(row: unknown): unknown {
  if (row === null || typeof row !== "object") return row;
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) plain[key] = plainValue(value);
  return plain;
}

function* plainRows(iterator: Iterator<unknown>): IterableIterator<unknown> {
  try {
    for (;;) {
      const next = call(() => iterator.next());
      if (next.done === true) return;
      yield plainRow(next.value);
    }
  } finally {
    iterator.return?.();
  }
}

/**
 * The parameters as node:sqlite binds them like better-sqlite3: Node 22
 * binds a view over a zero-length ArrayBuffer as NULL, not as an empty blob
 * (a NOT NULL blob column refuses it), so such a view becomes one over a
 * one-byte buffer, still zero bytes long.
 */
function bindable(parameters: readonly unknown[]): unknown[] {
  return parameters.map((value) =>
    ArrayBuffer.isView(value) && value.byteLength === 0 && value.buffer.byteLength === 0 ? new Uint8Array(new ArrayBuffer(1), 0, 0) : value,
  );
}

/**
 * Opens `filename` with node:sqlite's `DatabaseSync` behind the
 * better-sqlite3-like {@link SqliteConnection} Kysely's `SqliteDialect`
 * drives: parameters passed spread, `reader` from the statement's result
 * columns, plain rows with Buffer blobs and integers as numbers (rounded
 * past 2^53 like better-sqlite3's, never a throw), errors with better-sqlite3's
 * `code` strings, and `close()` safe to call twice.
 */
export function openNodeSqliteConnection(sqlite: NodeSqliteModule, filename: string): SqliteConnection {
  const database = call(() => new sqlite.DatabaseSync(filename));
  return {
    get open() {
      return database.isOpen;
    },
    pragma(source) {
      call(() => database.exec(`pragma ${source}`));
      return undefined;
    },
    prepare(sql) {
      const statement = call(() => database.prepare(sql));
      statement.setReadBigInts(true);
      return {
        reader: statement.columns().length > 0,
        all: (parameters) => call(() => statement.all(...bindable(parameters))).map(plainRow),
        run: (parameters) => {
          const { changes, lastInsertRowid } = call(() => statement.run(...bindable(parameters)));
          return { changes: Number(changes), lastInsertRowid: Number(lastInsertRowid) };
        },
        iterate: (parameters) => plainRows(call(() => statement.iterate(...bindable(parameters)))),
      };
    },
    close() {
      if (database.isOpen) call(() => database.close());
    },
  };
}
