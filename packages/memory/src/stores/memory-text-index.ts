/**
 * What differs between the dialects' full-text indexes, behind one small
 * interface the Kysely store calls: extra meta columns, keeping the index
 * in step inside the write transaction, and one search statement per index.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import type { MemoryScopeRef, MemoryTextQuery } from "../ports/memory-index-store.js";
import { MEMORY_META_TABLE, META_VALUE_COLUMNS, type MemoryMetaRow } from "./memory-rows.js";

/**
 * A Kysely instance or transaction of either dialect. Typed loosely as the
 * storage's own `db` is: the text indexes speak raw SQL to tables that are
 * partly virtual (FTS5) or dialect-specific.
 */
// biome-ignore lint/suspicious/noExplicitAny: the tables differ per dialect and FTS5 tables have no static row type.
export type MemorySqlExecutor = Kysely<any>;

/** A meta row found by a search, with its rank (lower is better). */
export interface MemoryTextIndexHit {
  readonly row: MemoryMetaRow;
  readonly rank: number;
}

/** Rows changed between two calls of {@link MemoryTextIndex.tidy}. */
export const MEMORY_TIDY_AFTER_CHANGES = 500;

/** One dialect's text indexes. */
export interface MemoryTextIndex {
  /** Extra meta columns a record's row carries (e.g. a tsvector); `{}` when the index lives elsewhere. */
  metaExtras(record: MemoryRecord): Record<string, unknown>;
  /** Brings the index in step after the meta row `id` was inserted or replaced; runs inside the write transaction. */
  afterUpsert(transaction: MemorySqlExecutor, id: number, record: MemoryRecord): Promise<void>;
  /** Removes meta row `id` from the index; runs inside the write transaction. */
  afterDelete(transaction: MemorySqlExecutor, id: number): Promise<void>;
  /** Runs last inside every write transaction that did not conflict (e.g. to update table-wide totals after every row lock is held); optional. */
  beforeCommit?(transaction: MemorySqlExecutor): Promise<void>;
  /**
   * Clears up after many writes, outside any transaction (the store calls it
   * once {@link MEMORY_TIDY_AFTER_CHANGES} rows changed since the last call);
   * optional, and never fails a write.
   */
  tidy?(db: MemorySqlExecutor): Promise<void>;
  /** Hits best first, at most `query.limit`, scope, type and archived filters applied. */
  search(db: MemorySqlExecutor, query: MemoryTextQuery): Promise<MemoryTextIndexHit[]>;
}

/** The meta columns a query returns, qualified with the alias `m`. */
export const META_COLUMNS_SQL: RawBuilder<unknown> = sql.raw(
  ["id", "scope", "workdir_hash", "slug", ...META_VALUE_COLUMNS].map((column) => `m.${column}`).join(", "),
);

/** `FROM`-clause name of the meta table. */
export const META_TABLE_SQL: RawBuilder<unknown> = sql.table(MEMORY_META_TABLE);

/** `(m.scope, m.workdir_hash)` in the given scopes; false for none. */
export function scopeFilterSql(scopes: readonly MemoryScopeRef[]): RawBuilder<unknown> {
  if (scopes.length === 0) return sql`1 = 0`;
  return sql`(${sql.join(
    scopes.map((scope) => sql`(m.scope = ${scope.scope} and m.workdir_hash = ${scope.workdirHash})`),
    sql` or `,
  )})`;
}

/** `m.type` in the given types, and not archived unless asked. */
export function typeAndArchiveFilterSql(types: readonly string[], includeArchived: boolean | undefined): RawBuilder<unknown> {
  const typeFilter = types.length === 0 ? sql`1 = 0` : sql`m.type in (${sql.join([...types])})`;
  return includeArchived === true ? typeFilter : sql`${typeFilter} and m.archived = 0`;
}

/** A LIKE pattern matching `text` anywhere, with `\` as the escape character. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** BM25's term-frequency saturation (k1 1.2, no length or IDF part): the rank share of a term found `occurrences` times by a scan. */
export function scanTermRank(occurrences: number): number {
  return occurrences <= 0 ? 0 : -(occurrences * 2.2) / (occurrences + 1.2);
}
