import type { SqliteConnection } from "./node-sqlite-driver.js";

/** `String#toWellFormed` (ES2024, in every Node this package supports; the compiler's lib is ES2023). */
type WellFormable = string & { toWellFormed(): string };

/** A string with its lone UTF-16 surrogates replaced by U+FFFD; any other value as it is. */
function wellFormed(value: unknown): unknown {
  return typeof value === "string" ? (value as WellFormable).toWellFormed() : value;
}

const wellFormedParameters = (parameters: readonly unknown[]): readonly unknown[] =>
  parameters.some((value) => typeof value === "string") ? parameters.map(wellFormed) : parameters;

/**
 * A better-sqlite3 connection that binds a string holding a lone UTF-16
 * surrogate as node:sqlite does: the surrogate becomes U+FFFD (one
 * character). better-sqlite3 alone writes it as three bytes that are not
 * UTF-8 and reads them back as three U+FFFD, so the same tool call stored
 * different text on Node 20 than on Node 22/24.
 */
export function wellFormedTextConnection(database: SqliteConnection): SqliteConnection {
  return {
    get open() {
      return database.open;
    },
    pragma: (source) => database.pragma(source),
    prepare(sql) {
      const statement = database.prepare(sql);
      return {
        reader: statement.reader,
        all: (parameters) => statement.all(wellFormedParameters(parameters)),
        run: (parameters) => statement.run(wellFormedParameters(parameters)),
        iterate: (parameters) => statement.iterate(wellFormedParameters(parameters)),
      };
    },
    close: () => database.close(),
  };
}
