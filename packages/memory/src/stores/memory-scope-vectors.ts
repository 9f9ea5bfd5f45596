/**
 * One scope's vectors of one model, as the database stores' search keeps
 * them between searches: read in two statements (the scope's entries, the
 * model's vectors there), matched by slug and body hash (a vector of an
 * older body is left out), decoded into one Float32Array and checked once
 * (wrong length, a non-finite component, not unit length). A search then
 * scans them with its own type and archived filters.
 */
import { sql } from "kysely";
import type { MemoryScopeRef } from "../ports/memory-scope-ref.js";
import type { MemoryVectorSkip } from "../ports/memory-vector-index.js";
import { UNIT_LENGTH_TOLERANCE, type VectorTopK } from "../ports/memory-vector-rules.js";
import { MEMORY_META_TABLE } from "./memory-rows.js";
import type { MemorySqlExecutor } from "./memory-text-index.js";
import type { CachedScopeValue } from "./memory-vector-cache.js";
import { decodeVector } from "./memory-vector-blob.js";

/** One scope's current vectors of one model id, of the length `dimension`, index by index. */
export interface ScopeVectors extends CachedScopeValue {
  readonly scope: MemoryScopeRef;
  readonly dimension: number;
  readonly slugs: readonly string[];
  readonly bodyHashes: readonly string[];
  readonly types: readonly string[];
  /** 1 where the entry is archived. */
  readonly archived: Uint8Array;
  /** 1 where the stored vector is damaged: a component not finite, or not unit length (and not all zero). */
  readonly invalid: Uint8Array;
  /** `slugs.length * dimension` components. */
  readonly vectors: Float32Array;
  /** Current entries whose stored vector has another length. */
  readonly otherLengths: readonly { readonly slug: string; readonly type: string; readonly archived: boolean; readonly length: number }[];
}

/** An entry of the scope as the read matches it with its vector. */
interface ScopeEntry {
  readonly type: string;
  readonly archived: boolean;
  readonly bodyHash: string;
}

/** The scope's entries by slug and the model's vectors there (body hash, slug, bytes), in the primary key's order. */
interface ScopeRead {
  readonly entries: Map<string, ScopeEntry>;
  readonly vectors: { readonly bodyHash: string; readonly slug: string; readonly bytes: Uint8Array }[];
}

/** The scope's rows: `m` or `v` aliased. */
function inScope(alias: "m" | "v", scope: MemoryScopeRef) {
  return sql`${sql.ref(`${alias}.scope`)} = ${scope.scope} and ${sql.ref(`${alias}.workdir_hash`)} = ${scope.workdirHash}`;
}

/**
 * Reads the scope on SQLite in two aggregate statements (one JS value each
 * instead of a row object per entry: at 1,000 entries 2.2 against 3.8 ms),
 * falling back to a row each when the aggregate does not add up (a slug
 * holding a newline, a type or body hash holding a space, vectors of another
 * length, or more bytes than SQLite returns in one value). PostgreSQL reads
 * a row each (it sends a bytea as hex text: one value of every vector took
 * longer than a row each).
 */
async function readScope(db: MemorySqlExecutor, dialect: "sqlite" | "postgres", scope: MemoryScopeRef, modelId: string, dimension: number): Promise<ScopeRead> {
  // Unary + keeps SQLite without statistics off memory_vectors_model (every vector of the model) for the primary key's range.
  const modelFilter = dialect === "sqlite" ? sql`+v.model_id = ${modelId}` : sql`v.model_id = ${modelId}`;
  if (dialect === "sqlite") {
    const aggregate = await readScopeAggregates(db, scope, modelFilter, dimension).catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code === "SQLITE_TOOBIG") return undefined;
      throw error;
    });
    if (aggregate !== undefined) return aggregate;
  }
  const [entryRows, vectorRows] = await Promise.all([
    sql<{ type: string; archived: number | string; body_hash: string; slug: string }>`select m.type, m.archived, m.body_hash, m.slug
      from ${sql.table(MEMORY_META_TABLE)} m where ${inScope("m", scope)}`.execute(db),
    sql<{ body_hash: string; slug: string; vector: Uint8Array }>`select v.body_hash, v.slug, v.vector from memory_vectors v
      where ${modelFilter} and ${inScope("v", scope)}`.execute(db),
  ]);
  const entries = new Map<string, ScopeEntry>();
  for (const row of entryRows.rows) entries.set(row.slug, { type: row.type, archived: Number(row.archived) === 1, bodyHash: row.body_hash });
  return { entries, vectors: vectorRows.rows.map((row) => ({ bodyHash: row.body_hash, slug: row.slug, bytes: row.vector })) };
}

/** SQLite's two aggregate statements, or undefined when they do not add up. */
async function readScopeAggregates(
  db: MemorySqlExecutor,
  scope: MemoryScopeRef,
  modelFilter: ReturnType<typeof sql>,
  dimension: number,
): Promise<ScopeRead | undefined> {
  const size = dimension * 4;
  // `unsplittable` counts what the stamps cannot carry: a space in a type or body hash (the fields before the slug,
  // split at spaces), and a vector of another length than the query's (the concatenation splits at `size` bytes:
  // vectors of 3 and 5 components would read as two of 4).
  const [entryResult, vectorResult] = await Promise.all([
    sql<{ count: number; stamps: string | null; unsplittable: number | null }>`select count(*) as count,
      group_concat(m.type || ' ' || m.archived || ' ' || m.body_hash || ' ' || m.slug, char(10)) as stamps,
      sum(instr(m.type, ' ') > 0 or instr(m.body_hash, ' ') > 0) as unsplittable
      from ${sql.table(MEMORY_META_TABLE)} m where ${inScope("m", scope)}`.execute(db),
    sql<{ count: number; stamps: string | null; vectors: Uint8Array | null; unsplittable: number | null }>`select count(*) as count,
      group_concat(v.body_hash || ' ' || v.slug, char(10)) as stamps, cast(group_concat(v.vector, '') as blob) as vectors,
      sum(instr(v.body_hash, ' ') > 0 or length(v.vector) <> ${size}) as unsplittable
      from memory_vectors v where ${modelFilter} and ${inScope("v", scope)}`.execute(db),
  ]);
  const entryStamps = entryResult.rows[0]?.stamps ? (entryResult.rows[0].stamps as string).split("\n") : [];
  const vectorStamps = vectorResult.rows[0]?.stamps ? (vectorResult.rows[0].stamps as string).split("\n") : [];
  const bytes = vectorResult.rows[0]?.vectors ?? new Uint8Array(0);
  if (
    Number(entryResult.rows[0]?.unsplittable ?? 0) > 0 ||
    Number(vectorResult.rows[0]?.unsplittable ?? 0) > 0 ||
    entryStamps.length !== Number(entryResult.rows[0]?.count ?? 0) ||
    vectorStamps.length !== Number(vectorResult.rows[0]?.count ?? 0) ||
    bytes.byteLength !== vectorStamps.length * size
  ) {
    return undefined;
  }
  const entries = new Map<string, ScopeEntry>();
  for (const stamp of entryStamps) {
    // type, archived and body hash hold no space; the slug is the rest.
    const first = stamp.indexOf(" ");
    const second = stamp.indexOf(" ", first + 1);
    const third = stamp.indexOf(" ", second + 1);
    entries.set(stamp.slice(third + 1), {
      type: stamp.slice(0, first),
      archived: stamp.slice(first + 1, second) === "1",
      bodyHash: stamp.slice(second + 1, third),
    });
  }
  const vectors = vectorStamps.map((stamp, index) => {
    const space = stamp.indexOf(" ");
    return { bodyHash: stamp.slice(0, space), slug: stamp.slice(space + 1), bytes: bytes.subarray(index * size, (index + 1) * size) };
  });
  return { entries, vectors };
}

/** Whether a stored vector is damaged: a component not finite, or not unit length and not all zero. */
function damaged(vectors: Float32Array, offset: number, dimension: number): boolean {
  let squared = 0;
  for (let index = offset; index < offset + dimension; index += 1) {
    const component = vectors[index] as number;
    squared += component * component;
  }
  return !Number.isFinite(squared) || (squared !== 0 && Math.abs(squared - 1) > UNIT_LENGTH_TOLERANCE);
}

/** Reads, matches, decodes and checks the scope's vectors of `modelId` at `dimension`, tagged with the scope `version` read before. */
export async function readScopeVectors(
  db: MemorySqlExecutor,
  dialect: "sqlite" | "postgres",
  scope: MemoryScopeRef,
  modelId: string,
  dimension: number,
  version: number,
): Promise<ScopeVectors> {
  const read = await readScope(db, dialect, scope, modelId, dimension);
  const current = read.vectors.filter((vector) => read.entries.get(vector.slug)?.bodyHash === vector.bodyHash);
  const sameLength = current.filter((vector) => vector.bytes.byteLength === dimension * 4);
  const vectors = new Float32Array(sameLength.length * dimension);
  const archived = new Uint8Array(sameLength.length);
  const invalid = new Uint8Array(sameLength.length);
  const slugs: string[] = [];
  const bodyHashes: string[] = [];
  const types: string[] = [];
  let bytes = vectors.byteLength + 2 * sameLength.length + 64;
  for (const [index, vector] of sameLength.entries()) {
    const entry = read.entries.get(vector.slug) as ScopeEntry;
    vectors.set(decodeVector(vector.bytes, dimension), index * dimension);
    archived[index] = entry.archived ? 1 : 0;
    invalid[index] = damaged(vectors, index * dimension, dimension) ? 1 : 0;
    slugs.push(vector.slug);
    bodyHashes.push(vector.bodyHash);
    types.push(entry.type);
    bytes += 2 * (vector.slug.length + vector.bodyHash.length) + 64;
  }
  const otherLengths = current
    .filter((vector) => vector.bytes.byteLength !== dimension * 4)
    .map((vector) => {
      const entry = read.entries.get(vector.slug) as ScopeEntry;
      return { slug: vector.slug, type: entry.type, archived: entry.archived, length: vector.bytes.byteLength / 4 };
    });
  bytes += otherLengths.length * 128;
  // A copy: the caller's object may change after the search, and the value outlives it in the cache.
  return {
    version,
    bytes,
    scope: { scope: scope.scope, workdirHash: scope.workdirHash },
    dimension,
    slugs,
    bodyHashes,
    types,
    archived,
    invalid,
    vectors,
    otherLengths,
  };
}

/** A scanned candidate's index in its scope's {@link ScopeVectors}. */
export interface ScopeVectorRef {
  readonly value: ScopeVectors;
  readonly index: number;
}

/** What a scan over several scopes adds up: the skipped vectors, and the lengths it met. */
export interface ScopeScanTally {
  readonly skipped: MemoryVectorSkip[];
  /** Vectors of the query's length that passed the filters. */
  sameLength: number;
  /** A length other than the query's, of a vector that passed the filters. */
  otherLength?: number;
}

/** Offers the vectors of `value` that pass the filters to `top`, and adds the damaged and other-length ones to `tally`. */
export function scanScopeVectors(
  value: ScopeVectors,
  query: { readonly vector: Float32Array; readonly types: ReadonlySet<string>; readonly includeArchived: boolean },
  top: VectorTopK<ScopeVectorRef>,
  tally: ScopeScanTally,
): void {
  const { dimension, vectors } = value;
  const queryVector = query.vector;
  const keyOf = (slug: string) => ({ scope: value.scope.scope, workdirHash: value.scope.workdirHash, slug });
  for (let index = 0; index < value.slugs.length; index += 1) {
    if (!query.types.has(value.types[index] as string) || (!query.includeArchived && value.archived[index] === 1)) continue;
    tally.sameLength += 1;
    if (value.invalid[index] === 1) {
      tally.skipped.push({ key: keyOf(value.slugs[index] as string), reason: "invalid" });
      continue;
    }
    let similarity = 0;
    const offset = index * dimension;
    for (let component = 0; component < dimension; component += 1) similarity += (queryVector[component] as number) * (vectors[offset + component] as number);
    if (top.admits(similarity)) top.offer({ ...keyOf(value.slugs[index] as string), similarity, item: { value, index } });
  }
  for (const other of value.otherLengths) {
    if (!query.types.has(other.type) || (!query.includeArchived && other.archived)) continue;
    tally.otherLength ??= other.length;
    tally.skipped.push({ key: keyOf(other.slug), reason: "dimension" });
  }
}
