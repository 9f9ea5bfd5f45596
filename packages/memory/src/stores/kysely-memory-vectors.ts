/**
 * The vector side of {@link KyselyMemoryIndexStore}, same SQL on SQLite and
 * PostgreSQL: the `memory_vectors` table (float32 BLOB / bytea, a foreign
 * key to the meta row that cascades its deletes), writes that store a row
 * only while the entry still has the row's body hash (and move the scope's
 * version, `memory_scope_versions`), and a search that scans each asked
 * scope's decoded vectors in JS (dot product, top-K), kept between searches
 * while the scope's version stands, then reads the best ones' meta rows.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { memoryKeyId, searchTypes } from "../ports/memory-index-query.js";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import type {
  MemoryVectorBacklogQuery,
  MemoryVectorHit,
  MemoryVectorHits,
  MemoryVectorQuery,
  MemoryVectorRow,
  MemoryVectorSkip,
} from "../ports/memory-vector-index.js";
import { VectorTopK, assertBacklogQuery, assertModelId, assertVectorQuery, assertVectorRows, dimensionMismatch } from "../ports/memory-vector-rules.js";
import { MEMORY_META_TABLE, type MemoryMetaRow, metaRowToRecord } from "./memory-rows.js";
import { bumpMemoryScopeVersions, compareCodePoints, readMemoryScopeVersions, scopeVersionKey, wellFormedScope } from "./memory-scope-versions.js";
import { type ScopeScanTally, type ScopeVectorRef, type ScopeVectors, readScopeVectors, scanScopeVectors } from "./memory-scope-vectors.js";
import { META_COLUMNS_SQL, type MemorySqlExecutor, scopeFilterSql } from "./memory-text-index.js";
import { encodeVector } from "./memory-vector-blob.js";
import type { ScopeValueCache } from "./memory-vector-cache.js";

/** One vector per entry and model id. */
export const MEMORY_VECTORS_TABLE = "memory_vectors";
/** Keys whose meta rows one locking read covers. */
const LOCK_CHUNK = 200;

/** Creates {@link MEMORY_VECTORS_TABLE} (a migration step calls it). */
export async function createMemoryVectorsTable(db: MemorySqlExecutor, dialect: "sqlite" | "postgres"): Promise<void> {
  await db.schema
    .createTable(MEMORY_VECTORS_TABLE)
    .addColumn("scope", "text", (column) => column.notNull())
    .addColumn("workdir_hash", "text", (column) => column.notNull())
    .addColumn("slug", "text", (column) => column.notNull())
    .addColumn("model_id", "text", (column) => column.notNull())
    .addColumn("body_hash", "text", (column) => column.notNull())
    .addColumn("dimension", "integer", (column) => column.notNull())
    .addColumn("vector", dialect === "postgres" ? "bytea" : "blob", (column) => column.notNull())
    .addPrimaryKeyConstraint("memory_vectors_pk", ["scope", "workdir_hash", "slug", "model_id"])
    .addForeignKeyConstraint("memory_vectors_entry_fk", ["scope", "workdir_hash", "slug"], MEMORY_META_TABLE, ["scope", "workdir_hash", "slug"], (constraint) =>
      constraint.onDelete("cascade"),
    )
    .addCheckConstraint("memory_vectors_length", sql`dimension > 0 and length(vector) = 4 * dimension`)
    .execute();
  // Pruning and the dimension check of a write read by model id.
  await db.schema.createIndex("memory_vectors_model").on(MEMORY_VECTORS_TABLE).columns(["model_id", "dimension"]).execute();
  // The scan's read of the asked scopes' entries (key, type, archived, body hash) and the backlog's check of every
  // entry (plus updated_at) from the index alone: the meta rows hold the bodies, which SQLite would read (overflow
  // pages included) to reach body_hash.
  await db.schema
    .createIndex("memory_meta_vector_scan")
    .on(MEMORY_META_TABLE)
    .columns(["scope", "workdir_hash", "type", "archived", "slug", "body_hash", "updated_at"])
    .execute();
}

/** A parameter with its type on PostgreSQL (whose INSERT ... SELECT would read an untyped one as text); bare on SQLite. */
function typed(dialect: "sqlite" | "postgres", value: unknown, type: "text" | "integer" | "bytea"): RawBuilder<unknown> {
  return dialect === "postgres" ? sql`cast(${value} as ${sql.raw(type)})` : sql`${value}`;
}

/** {@inheritDoc MemoryVectorIndex.putVectors}; `transaction` is the write transaction. */
export async function putMemoryVectors(
  transaction: MemorySqlExecutor,
  dialect: "sqlite" | "postgres",
  rows: readonly MemoryVectorRow[],
): Promise<{ readonly stored: number }> {
  const dimensions = assertVectorRows(rows);
  if (rows.length === 0) return { stored: 0 };
  const table = sql.table(MEMORY_VECTORS_TABLE);
  const meta = sql.table(MEMORY_META_TABLE);
  if (dialect === "postgres") {
    // Share-lock the meta rows (in the writers' key order) so no write of them commits before this transaction does:
    // a hash checked here stays the entry's hash, and a deleted entry cannot leave a vector behind.
    const keys = [...new Map(rows.map((row) => [memoryKeyId(row.key), row.key])).entries()].sort(([left], [right]) => compareCodePoints(left, right));
    for (let start = 0; start < keys.length; start += LOCK_CHUNK) {
      const chunk = keys
        .slice(start, start + LOCK_CHUNK)
        .map(([, key]) => sql`(m.scope = ${key.scope} and m.workdir_hash = ${key.workdirHash} and m.slug = ${key.slug})`);
      await sql`select m.id from ${meta} m where ${sql.join(chunk, sql` or `)}
        order by m.scope collate "C", m.workdir_hash collate "C", m.slug collate "C" for share`.execute(transaction);
    }
  }
  let stored = 0;
  for (const row of rows) {
    // The first statement writes (no read-then-upgrade on SQLite); the meta row's current hash decides.
    const { rows: written } = await sql<{ slug: string }>`insert into ${table} (scope, workdir_hash, slug, model_id, body_hash, dimension, vector)
      select m.scope, m.workdir_hash, m.slug, ${typed(dialect, row.modelId, "text")}, m.body_hash, ${typed(dialect, row.vector.length, "integer")}, ${typed(dialect, encodeVector(row.vector), "bytea")}
      from ${meta} m where m.scope = ${row.key.scope} and m.workdir_hash = ${row.key.workdirHash} and m.slug = ${row.key.slug} and m.body_hash = ${row.bodyHash}
      on conflict (scope, workdir_hash, slug, model_id) do update set body_hash = excluded.body_hash, dimension = excluded.dimension, vector = excluded.vector
      returning slug`.execute(transaction);
    stored += written.length;
  }
  // One model id has one dimension: a call whose dimension is not the model's rolls back. A few rows of another length
  // (a damaged database) do not block the model's own: the call is refused only when, with its rows written, rows of
  // another dimension are at least as many as those of its own.
  for (const [modelId, dimension] of dimensions) {
    const { rows: other } = await sql<{ dimension: number }>`select dimension from ${table}
      where model_id = ${modelId} and dimension <> ${dimension} limit 1`.execute(transaction);
    if (other[0] === undefined) continue;
    const { rows: counts } = await sql<{ dimension: number; total: number | string }>`select dimension, count(*) as total from ${table}
      where model_id = ${modelId} group by dimension order by count(*) desc`.execute(transaction);
    const own = Number(counts.find((count) => Number(count.dimension) === dimension)?.total ?? 0);
    const major = counts.find((count) => Number(count.dimension) !== dimension);
    if (major !== undefined && Number(major.total) >= own) throw dimensionMismatch(modelId, Number(major.dimension), dimension);
  }
  if (stored > 0)
    await bumpMemoryScopeVersions(
      transaction,
      rows.map((row) => row.key),
    );
  return { stored };
}

/**
 * {@inheritDoc MemoryVectorIndex.vectorBacklog}: the keys first, from the
 * covering index `memory_meta_vector_scan` and the vectors' primary key (no
 * meta row is read: when nothing is missing, 100,000 entries cost a pass over
 * two indexes), then the meta rows of the `limit` found.
 */
export async function memoryVectorBacklog(db: MemorySqlExecutor, query: MemoryVectorBacklogQuery): Promise<MemoryRecord[]> {
  assertBacklogQuery(query);
  if (query.limit === 0 || query.scopes?.length === 0) return [];
  const scopeFilter = query.scopes === undefined ? sql`1 = 1` : scopeFilterSql(query.scopes);
  const { rows: keys } = await sql<{ scope: string; workdir_hash: string; slug: string }>`select m.scope, m.workdir_hash, m.slug
    from ${sql.table(MEMORY_META_TABLE)} m
    where m.archived = 0 and ${scopeFilter} and not exists (select 1 from ${sql.table(MEMORY_VECTORS_TABLE)} v
      where v.scope = m.scope and v.workdir_hash = m.workdir_hash and v.slug = m.slug and v.model_id = ${query.modelId} and v.body_hash = m.body_hash
        and length(v.vector) = 4 * v.dimension)
    order by m.updated_at, m.scope, m.workdir_hash, m.slug
    limit ${query.limit}`.execute(db);
  if (keys.length === 0) return [];
  const rows = await metaRowsOf(
    db,
    keys.map((key) => ({ scope: key.scope, workdirHash: key.workdir_hash, slug: key.slug })),
  );
  // In the keys' order; an entry deleted in between is left out (the backlog is a hint, read again later).
  const byKey = new Map(rows.map((row) => [`${row.scope}\u0000${row.workdir_hash}\u0000${row.slug}`, row]));
  return keys.flatMap((key) => {
    const row = byKey.get(`${key.scope}\u0000${key.workdir_hash}\u0000${key.slug}`);
    return row === undefined || Number(row.archived) === 1 ? [] : [metaRowToRecord(row)];
  });
}

/**
 * {@inheritDoc MemoryVectorIndex.searchVectors}: reads the asked scopes'
 * versions (`memory_scope_versions`), then takes each scope's decoded
 * vectors from `cache` when they were read at that version, else reads them
 * (`readScopeVectors`: the scope's entries and the model's vectors there,
 * matched by slug and body hash) and keeps them. The scan applies the
 * query's type and archived filters and keeps the best `limit`; a last
 * statement reads their meta rows, and an entry that moved on in between
 * (another body, type or archived state) is left out. At 1,000 vectors of
 * 100 components on SQLite a search over a kept scope took 0.9 ms against
 * 2.4 ms reading it (docs/memory-vectors.md).
 */
export async function searchMemoryVectors(
  db: MemorySqlExecutor,
  dialect: "sqlite" | "postgres",
  query: MemoryVectorQuery,
  cache: ScopeValueCache<ScopeVectors>,
): Promise<MemoryVectorHits> {
  assertVectorQuery(query);
  if (query.limit === 0 || query.scopes.length === 0) return [];
  // As the database holds them (a lone surrogate is U+FFFD there), so versions, cache keys and hits all match its rows.
  const scopes = [...new Map(query.scopes.map((scope) => [scopeVersionKey(scope), wellFormedScope(scope)])).values()];
  const dimension = query.vector.length;
  // The versions first, then the data: what is read is at least as new as the version it is kept under.
  const versions = await readMemoryScopeVersions(db, scopes);
  const values = await Promise.all(
    scopes.map(async (scope) => {
      const version = versions.get(scopeVersionKey(scope)) ?? 0;
      const key = JSON.stringify([scope.scope, scope.workdirHash, query.modelId, dimension]);
      const cached = cache.get(key, version);
      if (cached !== undefined) return cached;
      const read = await readScopeVectors(db, dialect, scope, query.modelId, dimension, version);
      // The key (long model ids and workdir hashes) is held as long as the value: it counts against the budget too.
      const value = { ...read, bytes: read.bytes + 2 * key.length };
      cache.set(key, value);
      return value;
    }),
  );
  const types = new Set<string>(searchTypes(query));
  const includeArchived = query.includeArchived === true;
  const top = new VectorTopK<ScopeVectorRef>(query.limit);
  const tally: ScopeScanTally = { skipped: [], sameLength: 0 };
  for (const value of values) scanScopeVectors(value, { vector: query.vector, types, includeArchived }, top, tally);
  // Not one stored vector of the query's length: the query is the odd one.
  if (tally.sameLength === 0 && tally.otherLength !== undefined) throw dimensionMismatch(query.modelId, tally.otherLength, dimension);
  const hits: MemoryVectorHit[] & { skipped?: readonly MemoryVectorSkip[] } = [];
  if (tally.skipped.length > 0) hits.skipped = tally.skipped;
  const best = top.sorted();
  if (best.length === 0) return hits;
  const metaRows = await metaRowsOf(db, best);
  const byKey = new Map(
    metaRows.map((row) => [memoryKeyId({ scope: row.scope as MemoryRecord["scope"], workdirHash: row.workdir_hash, slug: row.slug }), row]),
  );
  for (const candidate of best) {
    const row = byKey.get(memoryKeyId(candidate));
    const { value, index } = candidate.item;
    if (row === undefined || row.body_hash !== value.bodyHashes[index]) continue;
    if (!types.has(row.type) || (!includeArchived && Number(row.archived) === 1)) continue;
    hits.push({ record: metaRowToRecord(row), similarity: candidate.similarity });
  }
  return hits;
}

/** The meta rows of `keys` (any order; missing ones left out), read by primary key in chunks of {@link LOCK_CHUNK}. */
async function metaRowsOf(db: MemorySqlExecutor, keys: readonly { scope: string; workdirHash: string; slug: string }[]): Promise<MemoryMetaRow[]> {
  const rows: MemoryMetaRow[] = [];
  for (let start = 0; start < keys.length; start += LOCK_CHUNK) {
    const chunk = keys
      .slice(start, start + LOCK_CHUNK)
      .map((key) => sql`(m.scope = ${key.scope} and m.workdir_hash = ${key.workdirHash} and m.slug = ${key.slug})`);
    const { rows: found } =
      await sql<MemoryMetaRow>`select ${META_COLUMNS_SQL} from ${sql.table(MEMORY_META_TABLE)} m where ${sql.join(chunk, sql` or `)}`.execute(db);
    rows.push(...found);
  }
  return rows;
}

/**
 * {@inheritDoc MemoryVectorIndex.pruneVectors}; `transaction` is the write
 * transaction. The versions of the scopes it deleted rows from move (a row
 * is created for a scope that had none: a database written before migration
 * 0009), locked in the same order as every other writer's.
 */
export async function pruneMemoryVectors(transaction: MemorySqlExecutor, keepModelId: string): Promise<number> {
  assertModelId(keepModelId, "pruneVectors");
  const { rows } = await sql<{ scope: string; workdir_hash: string }>`delete from ${sql.table(MEMORY_VECTORS_TABLE)}
    where model_id <> ${keepModelId} returning scope, workdir_hash`.execute(transaction);
  if (rows.length > 0) {
    await bumpMemoryScopeVersions(
      transaction,
      rows.map((row) => ({ scope: row.scope as MemoryScopeRef["scope"], workdirHash: row.workdir_hash })),
    );
  }
  return rows.length;
}
