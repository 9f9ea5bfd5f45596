/**
 * What PostgreSQL keeps so that its search scores are BM25 on the scale of
 * SQLite FTS5's `bm25()`: the table-wide row count and token totals (one
 * row of `memory_text_stats`), each meta row's token counts (its own
 * columns, for the length part, and `memory_text_lengths`, to take a
 * replaced or deleted row's counts back out of the totals), and the word
 * tokens as a spaced string the term frequencies are counted in.
 *
 * Lengths count as FTS5 counts them: word tokens of the folded slug,
 * description and body plus the one `scope_key` token; trigrams are each
 * column's code points less two (none under three) plus the one trigram of
 * the scope key.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { codePointLength } from "../ports/memory-index-query.js";
import { foldText, tokenizeWords } from "../ports/plain-bm25.js";
import { MEMORY_META_TABLE } from "./memory-rows.js";
import type { MemorySqlExecutor } from "./memory-text-index.js";

/** The one-row table of table-wide totals of migration 0005 (dropped by 0006 for {@link POSTGRES_MEMORY_SCOPE_STATS_TABLE}). */
const POSTGRES_MEMORY_STATS_TABLE = "memory_text_stats";
/** Row count and token totals per scope (the whole table's are their sums). */
export const POSTGRES_MEMORY_SCOPE_STATS_TABLE = "memory_text_scope_stats";
/** Document frequency per word token (rows holding it in slug, description or body). */
export const POSTGRES_MEMORY_TERMS_TABLE = "memory_text_terms";
/** Per meta id: scope, token counts and distinct word tokens, to subtract on replace and delete. */
export const POSTGRES_MEMORY_LENGTHS_TABLE = "memory_text_lengths";

/** The tsvector lexeme naming a scope (as SQLite's word table names it), so a search narrows to its scopes in the index. */
export function scopeLexeme(scope: Pick<MemoryRecord, "scope" | "workdirHash">): string {
  return scope.scope === "global" ? "zscopeglobal" : `zscopep${foldText(scope.workdirHash)}`;
}

/** A record's BM25 lengths and the spaced token string its word frequencies are counted in. */
export interface PostgresBm25Document {
  /** Word tokens, scope key included. */
  readonly wordLength: number;
  /** Trigrams, scope key included. */
  readonly trigramLength: number;
  /** Distinct word tokens of slug, description and body. */
  readonly terms: readonly string[];
  /** Every token wrapped in its own spaces (` a  b `), columns apart by a newline so no phrase spans two. */
  readonly tokens: string;
}

/** The spaced form of a phrase, as {@link PostgresBm25Document.tokens} holds it. */
export function spacedPhrase(words: readonly string[]): string {
  return words.map((word) => ` ${word} `).join("");
}

/** Lengths and tokens of a record, counted as SQLite's FTS5 tables count them. */
export function bm25Document(record: Pick<MemoryRecord, "slug" | "description" | "body">): PostgresBm25Document {
  const columns = [record.slug, record.description, record.body];
  const words = columns.map((column) => tokenizeWords(column));
  const trigrams = columns.reduce((total, column) => total + Math.max(0, codePointLength(foldText(column)) - 2), 0);
  return {
    wordLength: words.reduce((total, column) => total + column.length, 0) + 1,
    trigramLength: trigrams + 1,
    tokens: words.map(spacedPhrase).join("\n"),
    terms: [...new Set(words.flat())],
  };
}

/** Creates the statistics tables and columns, and counts the rows already indexed (a migration step calls it). */
export async function createPostgresBm25Statistics(db: MemorySqlExecutor): Promise<void> {
  const meta = sql.table(MEMORY_META_TABLE);
  await sql`alter table ${meta} add column search_tokens text not null default ''`.execute(db);
  await sql`alter table ${meta} add column word_length integer not null default 0`.execute(db);
  await sql`alter table ${meta} add column trigram_length integer not null default 0`.execute(db);
  await sql`create table ${sql.table(POSTGRES_MEMORY_LENGTHS_TABLE)} (id bigint primary key, word_length integer not null, trigram_length integer not null)`.execute(
    db,
  );
  await sql`create table ${sql.table(POSTGRES_MEMORY_STATS_TABLE)} (id smallint primary key, row_count bigint not null, word_tokens bigint not null, trigram_tokens bigint not null)`.execute(
    db,
  );
  let after = -1;
  for (;;) {
    const { rows } = await sql<{ id: string | number; slug: string; description: string; body: string }>`select id, slug, description, body from ${meta}
      where id > ${after} order by id limit 500`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      const document = bm25Document(row);
      await sql`update ${meta} set search_tokens = ${document.tokens}, word_length = ${document.wordLength}, trigram_length = ${document.trigramLength}
        where id = ${row.id}`.execute(db);
      await sql`insert into ${sql.table(POSTGRES_MEMORY_LENGTHS_TABLE)} (id, word_length, trigram_length)
        values (${row.id}, ${document.wordLength}, ${document.trigramLength})`.execute(db);
    }
    after = Number(rows[rows.length - 1]?.id);
  }
  await sql`insert into ${sql.table(POSTGRES_MEMORY_STATS_TABLE)} (id, row_count, word_tokens, trigram_tokens)
    select 1, count(*), coalesce(sum(word_length), 0), coalesce(sum(trigram_length), 0) from ${sql.table(POSTGRES_MEMORY_LENGTHS_TABLE)}`.execute(db);
}

interface ScopeDelta {
  readonly scope: string;
  readonly workdirHash: string;
  rows: number;
  words: number;
  trigrams: number;
}

interface TransactionDelta {
  readonly scopes: Map<string, ScopeDelta>;
  readonly terms: Map<string, number>;
}

/**
 * Changes to the totals and document frequencies, per write transaction.
 * They are written only at the end of the transaction
 * ({@link flushBm25Statistics}), after every meta row of the batch is
 * locked, scope rows then term rows each in sorted order: every writer
 * takes these locks last and in one order, so two batches never wait on
 * each other in a circle.
 */
const pending = new WeakMap<object, TransactionDelta>();

function deltaOf(transaction: object): TransactionDelta {
  let delta = pending.get(transaction);
  if (delta === undefined) {
    delta = { scopes: new Map(), terms: new Map() };
    pending.set(transaction, delta);
  }
  return delta;
}

function addScope(delta: TransactionDelta, scope: string, workdirHash: string, rows: number, words: number, trigrams: number): void {
  const key = `${scope}\u0000${workdirHash}`;
  let entry = delta.scopes.get(key);
  if (entry === undefined) {
    entry = { scope, workdirHash, rows: 0, words: 0, trigrams: 0 };
    delta.scopes.set(key, entry);
  }
  entry.rows += rows;
  entry.words += words;
  entry.trigrams += trigrams;
}

function addTerms(delta: TransactionDelta, terms: readonly string[], change: number): void {
  for (const term of terms) delta.terms.set(term, (delta.terms.get(term) ?? 0) + change);
}

type LengthsRow = { scope: string; workdir_hash: string; word_length: number; trigram_length: number; terms: string[] };

/** Takes meta row `id`'s earlier counts (if any) out and its new ones in; inside the write transaction. */
export async function recordBm25Lengths(
  transaction: MemorySqlExecutor,
  id: number,
  record: Pick<MemoryRecord, "scope" | "workdirHash">,
  document: PostgresBm25Document,
): Promise<void> {
  const lengths = sql.table(POSTGRES_MEMORY_LENGTHS_TABLE);
  const { rows } = await sql<LengthsRow>`delete from ${lengths} where id = ${id} returning scope, workdir_hash, word_length, trigram_length, terms`.execute(
    transaction,
  );
  await sql`insert into ${lengths} (id, scope, workdir_hash, word_length, trigram_length, terms)
    values (${id}, ${record.scope}, ${record.workdirHash}, ${document.wordLength}, ${document.trigramLength}, ${[...document.terms]}::text[])`.execute(
    transaction,
  );
  const delta = deltaOf(transaction);
  const old = rows[0];
  if (old !== undefined) subtract(delta, old);
  addScope(delta, record.scope, record.workdirHash, 1, document.wordLength, document.trigramLength);
  addTerms(delta, document.terms, 1);
}

function subtract(delta: TransactionDelta, old: LengthsRow): void {
  addScope(delta, old.scope, old.workdir_hash, -1, -old.word_length, -old.trigram_length);
  addTerms(delta, old.terms, -1);
}

/** Takes deleted meta row `id`'s counts out; inside the write transaction. */
export async function forgetBm25Lengths(transaction: MemorySqlExecutor, id: number): Promise<void> {
  const { rows } = await sql<LengthsRow>`delete from ${sql.table(POSTGRES_MEMORY_LENGTHS_TABLE)}
    where id = ${id} returning scope, workdir_hash, word_length, trigram_length, terms`.execute(transaction);
  if (rows[0] !== undefined) subtract(deltaOf(transaction), rows[0]);
}

/** Writes the transaction's changes to the scope totals and document frequencies; the last statements of a write transaction. */
export async function flushBm25Statistics(transaction: MemorySqlExecutor): Promise<void> {
  const delta = pending.get(transaction);
  pending.delete(transaction);
  if (delta === undefined) return;
  const scopes = [...delta.scopes.values()]
    .filter((entry) => entry.rows !== 0 || entry.words !== 0 || entry.trigrams !== 0)
    .sort((left, right) => compare(left.scope, right.scope) || compare(left.workdirHash, right.workdirHash));
  if (scopes.length > 0) {
    const stats = sql.table(POSTGRES_MEMORY_SCOPE_STATS_TABLE);
    await sql`insert into ${stats} as s (scope, workdir_hash, row_count, word_tokens, trigram_tokens)
      select * from unnest(${scopes.map((entry) => entry.scope)}::text[], ${scopes.map((entry) => entry.workdirHash)}::text[],
        ${scopes.map((entry) => entry.rows)}::bigint[], ${scopes.map((entry) => entry.words)}::bigint[], ${scopes.map((entry) => entry.trigrams)}::bigint[])
      on conflict (scope, workdir_hash) do update set row_count = s.row_count + excluded.row_count,
        word_tokens = s.word_tokens + excluded.word_tokens, trigram_tokens = s.trigram_tokens + excluded.trigram_tokens`.execute(transaction);
  }
  const terms = [...delta.terms].filter(([, change]) => change !== 0).sort(([left], [right]) => compare(left, right));
  if (terms.length > 0) {
    await sql`insert into ${sql.table(POSTGRES_MEMORY_TERMS_TABLE)} as t (term, df)
      select * from unnest(${terms.map(([term]) => term)}::text[], ${terms.map(([, change]) => change)}::integer[])
      on conflict (term) do update set df = t.df + excluded.df`.execute(transaction);
  }
}

function compare(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * Migration 0006: per-scope totals and per-term document frequencies
 * replace the one totals row, and every row's `tsvector` gains its scope
 * lexeme; all counted again from the meta rows.
 */
export async function upgradePostgresBm25Statistics(db: MemorySqlExecutor): Promise<void> {
  const meta = sql.table(MEMORY_META_TABLE);
  const lengths = sql.table(POSTGRES_MEMORY_LENGTHS_TABLE);
  await sql`drop table ${sql.table(POSTGRES_MEMORY_STATS_TABLE)}`.execute(db);
  await sql`delete from ${lengths}`.execute(db);
  await sql`alter table ${lengths} add column scope text not null, add column workdir_hash text not null, add column terms text[] not null`.execute(db);
  await sql`create table ${sql.table(POSTGRES_MEMORY_SCOPE_STATS_TABLE)} (scope text not null, workdir_hash text not null, row_count bigint not null,
    word_tokens bigint not null, trigram_tokens bigint not null, primary key (scope, workdir_hash))`.execute(db);
  await sql`create table ${sql.table(POSTGRES_MEMORY_TERMS_TABLE)} (term text primary key, df integer not null)`.execute(db);
  let after = -1;
  for (;;) {
    const { rows } = await sql<{ id: string | number; scope: string; workdir_hash: string; slug: string; description: string; body: string }>`
      select id, scope, workdir_hash, slug, description, body from ${meta} where id > ${after} order by id limit 500`.execute(db);
    if (rows.length === 0) break;
    for (const row of rows) {
      const record = { scope: row.scope as MemoryRecord["scope"], workdirHash: row.workdir_hash };
      await sql`update ${meta} set search_words = ${searchWordsSql(record, row)} where id = ${row.id}`.execute(db);
      await recordBm25Lengths(db, Number(row.id), record, bm25Document(row));
    }
    after = Number(rows[rows.length - 1]?.id);
  }
  await flushBm25Statistics(db);
}

/** The `tsvector` of a record: its folded word tokens and its scope lexeme. */
export function searchWordsSql(
  scope: Pick<MemoryRecord, "scope" | "workdirHash">,
  record: Pick<MemoryRecord, "slug" | "description" | "body">,
): RawBuilder<unknown> {
  const words = tokenizeWords(`${record.slug}\n${record.description}\n${record.body}`);
  return sql`to_tsvector('simple', ${[...words, scopeLexeme(scope)].join(" ")}::text)`;
}
