/**
 * The vector side of {@link KyselyMemoryIndexStore}, same SQL on SQLite and
 * PostgreSQL: the `memory_vectors` table (float32 BLOB / bytea, a foreign
 * key to the meta row that cascades its deletes), writes that store a row
 * only while the entry still has the row's body hash, and a search that
 * reads the asked scopes' entries and vectors (two range reads), scans the
 * current vectors in JS (dot product, top-K), then reads the best ones'
 * meta rows.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { memoryKeyId, searchTypes } from "../ports/memory-index-query.js";
import type {
  MemoryVectorBacklogQuery,
  MemoryVectorHit,
  MemoryVectorHits,
  MemoryVectorQuery,
  MemoryVectorRow,
  MemoryVectorSkip,
} from "../ports/memory-vector-index.js";
import {
  VectorTopK,
  assertBacklogQuery,
  assertModelId,
  assertVectorQuery,
  assertVectorRows,
  dimensionMismatch,
  storedSimilarity,
} from "../ports/memory-vector-rules.js";
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

/** `(v.scope, v.workdir_hash)` in the given scopes (there is at least one). */
function vectorScopeFilterSql(scopes: MemoryVectorQuery["scopes"]): RawBuilder<unknown> {
  return sql`(${sql.join(
    scopes.map((scope) => sql`(v.scope = ${scope.scope} and v.workdir_hash = ${scope.workdirHash})`),
    sql` or `,
  )})`;
}

/** An entry's key and body hash in one string, as the scan's statements build it: `workdir_hash slug body_hash`. */
const ENTRY_STAMP_SQL = (alias: "m" | "v") => sql.raw(`${alias}.workdir_hash || ' ' || ${alias}.slug || ' ' || ${alias}.body_hash`);

/** The key and body hash of a stamp (workdir hashes and body hashes hold no space; a slug's spaces, if any, stay in it). */
function parseStamp(stamp: string): { scope: MemoryRecord["scope"]; workdirHash: string; slug: string } {
  const first = stamp.indexOf(" ");
  const workdirHash = stamp.slice(0, first);
  // The schema ties the scope to the workdir hash: global has none, a project one.
  return { scope: workdirHash === "" ? "global" : "project", workdirHash, slug: stamp.slice(first + 1, stamp.lastIndexOf(" ")) };
}

/** The stamps of the asked scopes' entries and vectors, and the vectors, as the scan reads them. */
interface ScanInput {
  /** Stamps of the entries (types, archived filters applied). */
  readonly entries: readonly string[];
  /** Stamps of the model's vectors, in the order of `vectors`. */
  readonly stamps: readonly string[];
  /** Every vector's bytes, one after the other. */
  readonly vectors: readonly Uint8Array[] | Float32Array;
}

/**
 * Reads the scan's input. On SQLite in two aggregate statements: every
 * entry stamp in one string, every vector stamp in one string and every
 * vector in one BLOB (`group_concat` feeds both aggregates the same rows in
 * the same order). One JS value per statement instead of one row object per
 * entry: at 1,000 entries this took the reads from 3.8 to 2.2 ms of CPU.
 * Falls back to a row per vector when the aggregate does not add up (a slug
 * holding a newline, or vectors of another length). On PostgreSQL a row per
 * entry and per vector.
 */
async function readScanInput(db: MemorySqlExecutor, dialect: "sqlite" | "postgres", query: MemoryVectorQuery): Promise<ScanInput> {
  const entryFilter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
  // SQLite without statistics would read the vectors by memory_vectors_model (every vector of the model: 100,000 rows a
  // search at 100,000 entries) rather than the primary key's range of the asked scopes; unary + keeps it off that index.
  const modelColumn = dialect === "sqlite" ? sql`+v.model_id` : sql`v.model_id`;
  const vectorFilter = sql`${modelColumn} = ${query.modelId} and ${vectorScopeFilterSql(query.scopes)}`;
  // PostgreSQL sends a bytea as hex text: one field of every vector took longer than a row each (299 against 34 ms at 5,000).
  if (dialect === "postgres") return readScanRows(db, entryFilter, vectorFilter);
  let aggregates: Awaited<ReturnType<typeof readScanAggregates>>;
  try {
    aggregates = await readScanAggregates(db, entryFilter, vectorFilter);
  } catch (error) {
    // Vectors past SQLite's longest value (a scope far beyond the quota: 100,000 vectors of 1,536 components) go row by row.
    if ((error as { code?: unknown } | null)?.code === "SQLITE_TOOBIG") return readScanRows(db, entryFilter, vectorFilter);
    throw error;
  }
  const [entries, vectors] = aggregates;
  const entryRow = entries.rows[0];
  const vectorRow = vectors.rows[0];
  const entryStamps = entryRow?.stamps ? entryRow.stamps.split("\n") : [];
  const vectorStamps = vectorRow?.stamps ? vectorRow.stamps.split("\n") : [];
  const bytes = vectorRow?.vectors ?? new Uint8Array(0);
  const dimension = query.vector.length;
  if (
    entryStamps.length === Number(entryRow?.count ?? 0) &&
    vectorStamps.length === Number(vectorRow?.count ?? 0) &&
    bytes.byteLength === vectorStamps.length * dimension * 4
  ) {
    return { entries: entryStamps, stamps: vectorStamps, vectors: decodeVector(bytes, vectorStamps.length * dimension) };
  }
  return readScanRows(db, entryFilter, vectorFilter);
}

/** SQLite's two aggregate reads of the scan's input. */
function readScanAggregates(db: MemorySqlExecutor, entryFilter: RawBuilder<unknown>, vectorFilter: RawBuilder<unknown>) {
  return Promise.all([
    sql<{ count: number | string; stamps: string | null }>`select count(*) as count, group_concat(${ENTRY_STAMP_SQL("m")}, char(10)) as stamps
      from ${sql.table(MEMORY_META_TABLE)} m where ${entryFilter}`.execute(db),
    sql<{ count: number | string; stamps: string | null; vectors: Uint8Array | null }>`select count(*) as count,
      group_concat(${ENTRY_STAMP_SQL("v")}, char(10)) as stamps, cast(group_concat(v.vector, '') as blob) as vectors
      from ${sql.table(MEMORY_VECTORS_TABLE)} v where ${vectorFilter}`.execute(db),
  ]);
}

/** The exact path: one row per entry and per vector. */
async function readScanRows(db: MemorySqlExecutor, entryFilter: RawBuilder<unknown>, vectorFilter: RawBuilder<unknown>): Promise<ScanInput> {
  const [entryRows, vectorRows] = await Promise.all([
    sql<{ stamp: string }>`select ${ENTRY_STAMP_SQL("m")} as stamp from ${sql.table(MEMORY_META_TABLE)} m where ${entryFilter}`.execute(db),
    sql<{ stamp: string; vector: Uint8Array }>`select ${ENTRY_STAMP_SQL("v")} as stamp, v.vector from ${sql.table(MEMORY_VECTORS_TABLE)} v
      where ${vectorFilter}`.execute(db),
  ]);
  return {
    entries: entryRows.rows.map((row) => row.stamp),
    stamps: vectorRows.rows.map((row) => row.stamp),
    vectors: vectorRows.rows.map((row) => row.vector),
  };
}

/**
 * {@inheritDoc MemoryVectorIndex.searchVectors}: reads the asked scopes'
 * entries and the model's vectors there (two range reads on the primary
 * keys, see `readScanInput`), each carrying one string of key and body hash,
 * so a vector counts only when the same string names an entry. The scan
 * keeps the best `limit`; a third statement reads their meta rows, and an
 * entry whose hash moved on in between is left out. (A join in SQL costs a
 * B-tree lookup per row: at 1,000 rows on SQLite five times the two reads;
 * on a PostgreSQL without statistics yet it planned a nested loop.)
 */
export async function searchMemoryVectors(db: MemorySqlExecutor, dialect: "sqlite" | "postgres", query: MemoryVectorQuery): Promise<MemoryVectorHits> {
  assertVectorQuery(query);
  if (query.limit === 0 || query.scopes.length === 0) return [];
  const input = await readScanInput(db, dialect, query);
  const current = new Set(input.entries);
  const top = new VectorTopK<string>(query.limit);
  const dimension = query.vector.length;
  const skipped: MemoryVectorSkip[] = [];
  let otherLength: number | undefined;
  let sameLength = 0;
  for (let index = 0; index < input.stamps.length; index += 1) {
    const stamp = input.stamps[index] as string;
    if (!current.has(stamp)) continue;
    let similarity: number;
    if (input.vectors instanceof Float32Array) {
      similarity = storedSimilarity(query.vector, input.vectors, index * dimension);
    } else {
      const bytes = input.vectors[index] as Uint8Array;
      if (bytes.byteLength !== dimension * 4) {
        otherLength ??= bytes.byteLength / 4;
        skipped.push({ key: parseStamp(stamp), reason: "dimension" });
        continue;
      }
      similarity = storedSimilarity(query.vector, decodeVector(bytes, dimension));
    }
    sameLength += 1;
    if (Number.isNaN(similarity)) skipped.push({ key: parseStamp(stamp), reason: "invalid" });
    else if (top.admits(similarity)) top.offer({ ...parseStamp(stamp), similarity, item: stamp });
  }
  // Not one stored vector of the query's length: the query is the odd one.
  if (sameLength === 0 && otherLength !== undefined) throw dimensionMismatch(query.modelId, otherLength, dimension);
  const hits: MemoryVectorHit[] & { skipped?: readonly MemoryVectorSkip[] } = [];
  if (skipped.length > 0) hits.skipped = skipped;
  const best = top.sorted();
  if (best.length === 0) return hits;
  const metaRows = await metaRowsOf(db, best);
  const byStamp = new Map(metaRows.map((row) => [`${row.workdir_hash} ${row.slug} ${row.body_hash}`, row]));
  for (const candidate of best) {
    const row = byStamp.get(candidate.item);
    if (row !== undefined) hits.push({ record: metaRowToRecord(row), similarity: candidate.similarity });
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

/** {@inheritDoc MemoryVectorIndex.pruneVectors} */
export async function pruneMemoryVectors(db: MemorySqlExecutor, keepModelId: string): Promise<number> {
  assertModelId(keepModelId, "pruneVectors");
  const result = await db.deleteFrom(MEMORY_VECTORS_TABLE).where("model_id", "<>", keepModelId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
