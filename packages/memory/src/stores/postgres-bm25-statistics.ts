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
import { sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { codePointLength } from "../ports/memory-index-query.js";
import { foldText, tokenizeWords } from "../ports/plain-bm25.js";
import { MEMORY_META_TABLE } from "./memory-rows.js";
import type { MemorySqlExecutor } from "./memory-text-index.js";

/** The one-row table of table-wide totals. */
export const POSTGRES_MEMORY_STATS_TABLE = "memory_text_stats";
/** Per meta id token counts, to subtract on replace and delete. */
export const POSTGRES_MEMORY_LENGTHS_TABLE = "memory_text_lengths";

/** A record's BM25 lengths and the spaced token string its word frequencies are counted in. */
export interface PostgresBm25Document {
  /** Word tokens, scope key included. */
  readonly wordLength: number;
  /** Trigrams, scope key included. */
  readonly trigramLength: number;
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

interface StatsDelta {
  rows: number;
  words: number;
  trigrams: number;
}

/**
 * Changes to the totals, per write transaction. They are added to the one
 * stats row only at the end of the transaction ({@link flushBm25Statistics}),
 * after every meta row of the batch is locked: the stats row is then the
 * last lock a writer takes, so two batches never wait on each other in a
 * circle.
 */
const pending = new WeakMap<object, StatsDelta>();

function deltaOf(transaction: object): StatsDelta {
  let delta = pending.get(transaction);
  if (delta === undefined) {
    delta = { rows: 0, words: 0, trigrams: 0 };
    pending.set(transaction, delta);
  }
  return delta;
}

/** Takes meta row `id`'s earlier counts (if any) out and its new ones in; inside the write transaction. */
export async function recordBm25Lengths(transaction: MemorySqlExecutor, id: number, document: PostgresBm25Document): Promise<void> {
  const lengths = sql.table(POSTGRES_MEMORY_LENGTHS_TABLE);
  const { rows } = await sql<{
    word_length: number;
    trigram_length: number;
  }>`delete from ${lengths} where id = ${id} returning word_length, trigram_length`.execute(transaction);
  await sql`insert into ${lengths} (id, word_length, trigram_length) values (${id}, ${document.wordLength}, ${document.trigramLength})`.execute(transaction);
  const delta = deltaOf(transaction);
  const old = rows[0];
  delta.rows += old === undefined ? 1 : 0;
  delta.words += document.wordLength - (old?.word_length ?? 0);
  delta.trigrams += document.trigramLength - (old?.trigram_length ?? 0);
}

/** Takes deleted meta row `id`'s counts out of the totals; inside the write transaction. */
export async function forgetBm25Lengths(transaction: MemorySqlExecutor, id: number): Promise<void> {
  const { rows } = await sql<{ word_length: number; trigram_length: number }>`delete from ${sql.table(POSTGRES_MEMORY_LENGTHS_TABLE)}
    where id = ${id} returning word_length, trigram_length`.execute(transaction);
  const old = rows[0];
  if (old === undefined) return;
  const delta = deltaOf(transaction);
  delta.rows -= 1;
  delta.words -= old.word_length;
  delta.trigrams -= old.trigram_length;
}

/** Adds the transaction's changes to the stats row; the last statement of a write transaction. */
export async function flushBm25Statistics(transaction: MemorySqlExecutor): Promise<void> {
  const delta = pending.get(transaction);
  pending.delete(transaction);
  if (delta === undefined || (delta.rows === 0 && delta.words === 0 && delta.trigrams === 0)) return;
  await sql`update ${sql.table(POSTGRES_MEMORY_STATS_TABLE)} set row_count = row_count + ${delta.rows},
    word_tokens = word_tokens + ${delta.words}, trigram_tokens = trigram_tokens + ${delta.trigrams} where id = 1`.execute(transaction);
}
