/**
 * The vector side of {@link KyselyMemoryIndexStore}, same SQL on SQLite and
 * PostgreSQL: the `memory_vectors` table (float32 BLOB / bytea, a foreign
 * key to the meta row that cascades its deletes), writes that store a row
 * only while the entry still has the row's body hash, and a search that
 * reads the asked scopes' current vectors in one statement and scans them
 * in JS (dot product, top-K), then reads the meta rows of the best ones.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { memoryKeyId, searchTypes } from "../ports/memory-index-query.js";
import type { MemoryVectorHit, MemoryVectorQuery, MemoryVectorRow } from "../ports/memory-vector-index.js";
import { VectorTopK, assertLimit, assertModelId, assertVectorQuery, assertVectorRows, dimensionMismatch, dotProduct } from "../ports/memory-vector-rules.js";
import { MEMORY_META_TABLE, type MemoryMetaRow, metaRowToRecord } from "./memory-rows.js";
import { META_COLUMNS_SQL, type MemorySqlExecutor, scopeFilterSql, typeAndArchiveFilterSql } from "./memory-text-index.js";
import { decodeVector, encodeVector } from "./memory-vector-blob.js";

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
  // Pruning, the dimension check of a write and a model's backlog read by model id.
  await db.schema.createIndex("memory_vectors_model").on(MEMORY_VECTORS_TABLE).columns(["model_id", "dimension"]).execute();
}

/** A parameter with its type on PostgreSQL (whose INSERT ... SELECT would read an untyped one as text); bare on SQLite. */
function typed(dialect: "sqlite" | "postgres", value: unknown, type: "text" | "integer" | "bytea"): RawBuilder<unknown> {
  return dialect === "postgres" ? sql`cast(${value} as ${sql.raw(type)})` : sql`${value}`;
}

/** A vector row as the scan reads it. */
interface ScanRow {
  id: number | string;
  scope: string;
  workdir_hash: string;
  slug: string;
  body_hash: string;
  dimension: number;
  vector: Uint8Array;
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
    const keys = [...new Map(rows.map((row) => [memoryKeyId(row.key), row.key])).entries()].sort(([left], [right]) =>
      left < right ? -1 : left > right ? 1 : 0,
    );
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
  // One model id has one dimension: a stored vector of another length rolls the whole call back.
  for (const [modelId, dimension] of dimensions) {
    const { rows: other } = await sql<{ dimension: number }>`select dimension from ${table}
      where model_id = ${modelId} and dimension <> ${dimension} limit 1`.execute(transaction);
    if (other[0] !== undefined) throw dimensionMismatch(modelId, Number(other[0].dimension), dimension);
  }
  return { stored };
}

/** {@inheritDoc MemoryVectorIndex.vectorBacklog} */
export async function memoryVectorBacklog(db: MemorySqlExecutor, query: { readonly modelId: string; readonly limit: number }): Promise<MemoryRecord[]> {
  assertModelId(query.modelId, "vectorBacklog");
  assertLimit(query.limit, "vectorBacklog");
  const { rows } = await sql<MemoryMetaRow>`select ${META_COLUMNS_SQL} from ${sql.table(MEMORY_META_TABLE)} m
    where m.archived = 0 and not exists (select 1 from ${sql.table(MEMORY_VECTORS_TABLE)} v
      where v.scope = m.scope and v.workdir_hash = m.workdir_hash and v.slug = m.slug and v.model_id = ${query.modelId} and v.body_hash = m.body_hash)
    order by m.updated_at, m.scope, m.workdir_hash, m.slug
    limit ${query.limit}`.execute(db);
  return rows.map(metaRowToRecord);
}

/**
 * {@inheritDoc MemoryVectorIndex.searchVectors}: one statement reads the
 * id, key and vector of every entry of the asked scopes (types, archived)
 * whose vector of the model has the entry's current body hash; the scan
 * keeps the best `limit`; a second statement reads their meta rows (an entry
 * whose hash moved on in between is left out).
 */
export async function searchMemoryVectors(db: MemorySqlExecutor, query: MemoryVectorQuery): Promise<MemoryVectorHit[]> {
  assertVectorQuery(query);
  if (query.limit === 0 || query.scopes.length === 0) return [];
  const { rows } = await sql<ScanRow>`select m.id, m.scope, m.workdir_hash, m.slug, m.body_hash, v.dimension, v.vector
    from ${sql.table(MEMORY_META_TABLE)} m join ${sql.table(MEMORY_VECTORS_TABLE)} v
      on v.scope = m.scope and v.workdir_hash = m.workdir_hash and v.slug = m.slug and v.body_hash = m.body_hash
    where v.model_id = ${query.modelId} and ${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`.execute(
    db,
  );
  const top = new VectorTopK<ScanRow>(query.limit);
  const dimension = query.vector.length;
  for (const row of rows) {
    if (Number(row.dimension) !== dimension) throw dimensionMismatch(query.modelId, Number(row.dimension), dimension);
    const similarity = dotProduct(query.vector, decodeVector(row.vector, dimension));
    if (top.admits(similarity)) top.offer({ scope: row.scope as MemoryRecord["scope"], workdirHash: row.workdir_hash, slug: row.slug, similarity, item: row });
  }
  const best = top.sorted();
  if (best.length === 0) return [];
  const { rows: metaRows } = await sql<MemoryMetaRow>`select ${META_COLUMNS_SQL} from ${sql.table(MEMORY_META_TABLE)} m
    where m.id in (${sql.join(best.map((candidate) => candidate.item.id))})`.execute(db);
  const byId = new Map(metaRows.map((row) => [String(row.id), row]));
  const hits: MemoryVectorHit[] = [];
  for (const candidate of best) {
    const row = byId.get(String(candidate.item.id));
    if (row === undefined || row.body_hash !== candidate.item.body_hash) continue;
    hits.push({ record: metaRowToRecord(row), similarity: candidate.similarity });
  }
  return hits;
}

/** {@inheritDoc MemoryVectorIndex.pruneVectors} */
export async function pruneMemoryVectors(db: MemorySqlExecutor, keepModelId: string): Promise<number> {
  assertModelId(keepModelId, "pruneVectors");
  const result = await db.deleteFrom(MEMORY_VECTORS_TABLE).where("model_id", "<>", keepModelId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Whether the PostgreSQL database has the pgvector extension installed (`vector` in pg_extension). */
export async function pgvectorInstalled(db: MemorySqlExecutor): Promise<boolean> {
  const { rows } = await sql<{ installed: number }>`select 1 as installed from pg_extension where extname = 'vector'`.execute(db);
  return rows.length > 0;
}
