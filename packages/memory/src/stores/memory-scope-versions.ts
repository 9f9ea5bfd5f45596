/**
 * A change counter per scope (`memory_scope_versions`): every write
 * transaction of the store that changes a scope's entries or vectors adds
 * one to the scope's row before it commits. A reader that reads the
 * counters first and the data after can keep what it derived from the data
 * (decoded vectors) until a counter moves: the data it read is at least as
 * new as the counters, so an unchanged counter means an unchanged scope, in
 * this process or any other on the same database.
 *
 * The counters are the last rows a write transaction locks, in sorted order
 * (after the BM25 totals on PostgreSQL, which follow the same rule), so two
 * writers never wait on each other in a circle. A scope without a row has
 * version 0.
 */
import { sql } from "kysely";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import type { MemorySqlExecutor } from "./memory-text-index.js";

/** One row per scope that was ever written: `(scope, workdir_hash, version)`. */
export const MEMORY_SCOPE_VERSIONS_TABLE = "memory_scope_versions";

/** Scopes one bump statement writes (two parameters each). */
const BUMP_CHUNK = 500;

/** Creates {@link MEMORY_SCOPE_VERSIONS_TABLE} (a migration step calls it). */
export async function createMemoryScopeVersionsTable(db: MemorySqlExecutor): Promise<void> {
  await db.schema
    .createTable(MEMORY_SCOPE_VERSIONS_TABLE)
    .addColumn("scope", "text", (column) => column.notNull())
    .addColumn("workdir_hash", "text", (column) => column.notNull())
    .addColumn("version", "bigint", (column) => column.notNull())
    .addPrimaryKeyConstraint("memory_scope_versions_pk", ["scope", "workdir_hash"])
    .execute();
}

/** `String#toWellFormed` (ES2024, in every Node the package supports; the compiler's lib is ES2023). */
type WellFormable = string & { toWellFormed(): string };

/**
 * The scope as the database holds it: both drivers store a lone UTF-16
 * surrogate as U+FFFD, so a workdir hash holding one comes back from the
 * database as another string than the one asked.
 */
export function wellFormedScope(scope: MemoryScopeRef): MemoryScopeRef {
  return { scope: (scope.scope as WellFormable).toWellFormed() as MemoryScopeRef["scope"], workdirHash: (scope.workdirHash as WellFormable).toWellFormed() };
}

/** The map key of a scope in {@link readMemoryScopeVersions}' answer: JSON of its well-formed text (no two database scopes share one). */
export function scopeVersionKey(scope: MemoryScopeRef): string {
  const stored = wellFormedScope(scope);
  return JSON.stringify([stored.scope, stored.workdirHash]);
}

/**
 * Code-point order, which is UTF-8 byte order and so PostgreSQL's
 * `collate "C"` (the order of putVectors' share locks). JavaScript's `<` compares UTF-16 code units
 * instead: the two differ between a character above U+FFFF (a surrogate
 * pair) and one in U+E000..U+FFFF, and two writers locking rows in the two
 * orders could deadlock.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const leftUnit = left.charCodeAt(index);
    const rightUnit = right.charCodeAt(index);
    if (leftUnit === rightUnit) continue;
    const leftSurrogate = leftUnit >= 0xd800 && leftUnit <= 0xdfff;
    if (leftSurrogate !== (rightUnit >= 0xd800 && rightUnit <= 0xdfff)) return leftSurrogate ? 1 : -1;
    return leftUnit < rightUnit ? -1 : 1;
  }
  return left.length === right.length ? 0 : left.length < right.length ? -1 : 1;
}

function compareScopes(left: MemoryScopeRef, right: MemoryScopeRef): number {
  return compareCodePoints(left.scope, right.scope) || compareCodePoints(left.workdirHash, right.workdirHash);
}

/**
 * Adds one to the version of each of `scopes` (duplicates counted once),
 * inside the write transaction `transaction`, as its last writes: rows in
 * code-point order ({@link compareCodePoints}).
 */
export async function bumpMemoryScopeVersions(transaction: MemorySqlExecutor, scopes: Iterable<MemoryScopeRef>): Promise<void> {
  const unique = new Map<string, MemoryScopeRef>();
  for (const scope of scopes) unique.set(scopeVersionKey(scope), { scope: scope.scope, workdirHash: scope.workdirHash });
  if (unique.size === 0) return;
  const sorted = [...unique.values()].sort(compareScopes);
  const table = sql.table(MEMORY_SCOPE_VERSIONS_TABLE);
  // Chunks in order keep the lock order (a prune may move thousands of scopes: past one statement's parameters).
  for (let start = 0; start < sorted.length; start += BUMP_CHUNK) {
    await sql`insert into ${table} (scope, workdir_hash, version)
      values ${sql.join(sorted.slice(start, start + BUMP_CHUNK).map((scope) => sql`(${scope.scope}, ${scope.workdirHash}, 1)`))}
      on conflict (scope, workdir_hash) do update set version = ${table}.version + 1`.execute(transaction);
  }
}

/** The versions of `scopes` (0 for a scope never written), keyed by {@link scopeVersionKey}. */
export async function readMemoryScopeVersions(db: MemorySqlExecutor, scopes: readonly MemoryScopeRef[]): Promise<Map<string, number>> {
  const versions = new Map<string, number>(scopes.map((scope) => [scopeVersionKey(scope), 0]));
  if (scopes.length === 0) return versions;
  const { rows } = await sql<{ scope: string; workdir_hash: string; version: number | string }>`select scope, workdir_hash, version
    from ${sql.table(MEMORY_SCOPE_VERSIONS_TABLE)}
    where ${sql.join(
      scopes.map((scope) => sql`(scope = ${scope.scope} and workdir_hash = ${scope.workdirHash})`),
      sql` or `,
    )}`.execute(db);
  for (const row of rows) versions.set(scopeVersionKey({ scope: row.scope as MemoryScopeRef["scope"], workdirHash: row.workdir_hash }), Number(row.version));
  return versions;
}
