/**
 * pgvector on PostgreSQL: when the database has the `vector` extension
 * installed, the store adds an `embedding vector` column to
 * `memory_vectors`, kept equal to the float32 bytea by a trigger (so every
 * writer fills it, old and new alike), and answers `searchVectors` with one
 * exact statement ordered by pgvector's inner product: 32 rows cross the
 * wire instead of every vector of the asked scopes. The similarities and the
 * final order are computed in JS from the rows' bytes, as the scan does, so
 * both paths rank alike (pgvector's own single-precision distance only picks
 * the candidates, with a margin). See docs/memory-vectors.md.
 */
import type { Storage, StorageMigration } from "@agent-tools/storage";
import { sql } from "kysely";
import { searchTypes } from "../ports/memory-index-query.js";
import type { MemoryVectorHit, MemoryVectorHits, MemoryVectorQuery, MemoryVectorSkip } from "../ports/memory-vector-index.js";
import { VectorTopK, assertVectorQuery, dimensionMismatch, storedSimilarity } from "../ports/memory-vector-rules.js";
import { MEMORY_META_TABLE, type MemoryMetaRow, metaRowToRecord } from "./memory-rows.js";
import { META_COLUMNS_SQL, type MemorySqlExecutor, scopeFilterSql, typeAndArchiveFilterSql } from "./memory-text-index.js";
import { decodeVector } from "./memory-vector-blob.js";

/** The storage namespace of the pgvector steps: migrated only where the extension is installed. */
export const MEMORY_PGVECTOR_NAMESPACE = "memory-pgvector";
/** Candidates read beyond the limit, so near-ties at the cut that single precision orders differently still make it. */
const CANDIDATE_MARGIN = 8;

/** Decodes the store's float32 little-endian bytea into pgvector's type (finite values, as the store writes them). */
const FROM_BYTEA_FUNCTION = `create or replace function memory_vector_from_bytea(bytes bytea) returns vector
language sql immutable strict parallel safe as $$
  select array_agg(
           (case when (bits >> 31) = 1 then -1 else 1 end)
           * (case when (bits >> 23) & 255 = 0 then ((bits & 8388607)::float8 / 8388608) * 2 ^ (-126)
                   else (1 + (bits & 8388607)::float8 / 8388608) * 2 ^ (((bits >> 23) & 255) - 127) end)
           order by i)::real[]::vector
  from (select i, (get_byte(bytes, i * 4)::bigint | (get_byte(bytes, i * 4 + 1)::bigint << 8)
                   | (get_byte(bytes, i * 4 + 2)::bigint << 16) | (get_byte(bytes, i * 4 + 3)::bigint << 24)) as bits
        from generate_series(0, length(bytes) / 4 - 1) as i) as components
$$`;

/** The pgvector steps, in order (run once per database, under the storage's migration lock). */
export const MEMORY_PGVECTOR_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-embedding-column",
    async up(db) {
      await sql.raw(FROM_BYTEA_FUNCTION).execute(db);
      await sql`alter table memory_vectors add column if not exists embedding vector`.execute(db);
      await sql
        .raw(`create or replace function memory_vectors_embedding() returns trigger language plpgsql as $$
        begin
          new.embedding := case when length(new.vector) = 4 * new.dimension then memory_vector_from_bytea(new.vector) end;
          return new;
        end $$`)
        .execute(db);
      await sql`create or replace trigger memory_vectors_embedding before insert or update of vector, dimension on memory_vectors
        for each row execute function memory_vectors_embedding()`.execute(db);
      await sql`update memory_vectors set embedding = memory_vector_from_bytea(vector) where embedding is null and length(vector) = 4 * dimension`.execute(db);
    },
  },
];

/** Whether the database has the pgvector extension (`vector` in pg_extension). */
export async function pgvectorInstalled(db: MemorySqlExecutor): Promise<boolean> {
  const { rows } = await sql<{ installed: number }>`select 1 as installed from pg_extension where extname = 'vector'`.execute(db);
  return rows.length > 0;
}

/** Adds the embedding column, its trigger and backfill where pgvector is installed; resolves whether the store may use it. */
export async function preparePgvector(storage: Storage): Promise<boolean> {
  if (storage.dialect !== "postgres" || !(await pgvectorInstalled(storage.db))) return false;
  await storage.migrate(MEMORY_PGVECTOR_NAMESPACE, MEMORY_PGVECTOR_MIGRATIONS);
  return true;
}

/** pgvector's text form of a vector: `[c0,c1,...]` (JS's shortest form of each float32 reads back to the same float32). */
function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(",")}]`;
}

type CandidateRow = MemoryMetaRow & { vector: Uint8Array };

/**
 * {@inheritDoc MemoryVectorIndex.searchVectors} with pgvector: one statement
 * joins the asked scopes' current vectors of the model and the query's
 * length with their meta rows (types, archived) and orders them by
 * `embedding <#> query` (exact: no index is used for scopes of this size);
 * the `limit` + 8 nearest come back with their bytes, and the similarity,
 * damage check and order (ties by slug) are the scan's.
 */
export async function searchPgvector(db: MemorySqlExecutor, query: MemoryVectorQuery): Promise<MemoryVectorHits> {
  assertVectorQuery(query);
  if (query.limit === 0 || query.scopes.length === 0) return [];
  const dimension = query.vector.length;
  const literal = vectorLiteral(query.vector);
  const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
  const { rows } = await sql<CandidateRow>`select ${META_COLUMNS_SQL}, v.vector from memory_vectors v
    join ${sql.table(MEMORY_META_TABLE)} m on m.scope = v.scope and m.workdir_hash = v.workdir_hash and m.slug = v.slug and m.body_hash = v.body_hash
    where v.model_id = ${query.modelId} and v.dimension = ${dimension} and v.embedding is not null and vector_dims(v.embedding) = ${dimension} and ${filter}
    order by v.embedding <#> cast(${literal} as vector), m.slug, m.scope, m.workdir_hash
    limit ${query.limit + CANDIDATE_MARGIN}`.execute(db);
  if (rows.length === 0) {
    // Not one vector of the query's length: is the query the odd one?
    const { rows: other } = await sql<{ dimension: number }>`select v.dimension from memory_vectors v
      join ${sql.table(MEMORY_META_TABLE)} m on m.scope = v.scope and m.workdir_hash = v.workdir_hash and m.slug = v.slug and m.body_hash = v.body_hash
      where v.model_id = ${query.modelId} and v.dimension <> ${dimension} and ${filter} limit 1`.execute(db);
    if (other[0] !== undefined) throw dimensionMismatch(query.modelId, Number(other[0].dimension), dimension);
    return [];
  }
  const top = new VectorTopK<CandidateRow>(query.limit);
  const skipped: MemoryVectorSkip[] = [];
  for (const row of rows) {
    const key = { scope: row.scope as MemoryVectorHit["record"]["scope"], workdirHash: row.workdir_hash, slug: row.slug };
    const similarity = row.vector.byteLength === dimension * 4 ? storedSimilarity(query.vector, decodeVector(row.vector, dimension)) : Number.NaN;
    if (Number.isNaN(similarity)) skipped.push({ key, reason: "invalid" });
    else if (top.admits(similarity)) top.offer({ ...key, similarity, item: row });
  }
  const hits: MemoryVectorHit[] & { skipped?: readonly MemoryVectorSkip[] } = top
    .sorted()
    .map((candidate) => ({ record: metaRowToRecord(candidate.item), similarity: candidate.similarity }));
  if (skipped.length > 0) hits.skipped = skipped;
  return hits;
}
