/**
 * The PostgreSQL text indexes, kept as two columns of the meta row so a
 * write is one statement: `search_words`, a `tsvector` (config `simple`)
 * of the folded word tokens with a GIN index, and `search_text`, the folded
 * slug, description and body with a `pg_trgm` GIN index for substring
 * search. A later step adds the BM25 statistics
 * (see `postgres-bm25-statistics.ts`).
 *
 * Diacritics are removed in TypeScript ({@link foldText}) before storing and
 * before querying, rather than with the `unaccent` extension: the fold is
 * then the same on every backend and needs no extension beyond `pg_trgm`.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { codePointLength, parseSearchTerms, searchTypes } from "../ports/memory-index-query.js";
import type { MemoryTextQuery } from "../ports/memory-index-store.js";
import { foldText, fts5Idf, tokenizeWords } from "../ports/plain-bm25.js";
import {
  POSTGRES_MEMORY_STATS_TABLE,
  bm25Document,
  flushBm25Statistics,
  forgetBm25Lengths,
  recordBm25Lengths,
  spacedPhrase,
} from "./postgres-bm25-statistics.js";
import { MEMORY_META_TABLE, type MemoryMetaRow } from "./memory-rows.js";
import {
  META_COLUMNS_SQL,
  META_TABLE_SQL,
  type MemorySqlExecutor,
  type MemoryTextIndex,
  type MemoryTextIndexHit,
  containsPattern,
  scopeFilterSql,
  typeAndArchiveFilterSql,
} from "./memory-text-index.js";

/** Adds the search columns and their GIN indexes to the meta table (a migration step calls it). */
export async function createPostgresMemoryTextIndexes(db: MemorySqlExecutor): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  const meta = sql.table(MEMORY_META_TABLE);
  await sql`alter table ${meta} add column search_words tsvector not null default ''::tsvector`.execute(db);
  await sql`alter table ${meta} add column search_text text not null default ''`.execute(db);
  await sql`create index memory_meta_search_words on ${meta} using gin (search_words)`.execute(db);
  await sql`create index memory_meta_search_text_trgm on ${meta} using gin (search_text gin_trgm_ops)`.execute(db);
}

const K1 = 1.2;
const B = 0.75;

/** A `tsquery` lexeme literal. */
function lexeme(token: string): string {
  return `'${token.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

type ScoredRow = MemoryMetaRow & { score: number };

/** One term's part of the score: its frequency in the row, the row's length column and the term's IDF. */
interface ScoredTerm {
  readonly frequency: RawBuilder<unknown>;
  readonly idf: number;
}

/**
 * The {@link MemoryTextIndex} of PostgreSQL, scored as SQLite FTS5's
 * `bm25()` (k1 1.2, b 0.75, lower is better): the row count, average length
 * and each term's document count are the whole table's, as FTS5's are.
 * Word search finds rows through the `tsvector` index, counts each term's
 * document frequency there, and counts a term's occurrences in the row's
 * spaced token string. Trigram search matches `LIKE '%term%'` on the folded
 * text (the trigram index serves terms of three or more characters) and
 * scores those terms the same way over trigram lengths; shorter terms scan
 * and rank by occurrence count with BM25's saturation only, as on SQLite.
 */
export const postgresMemoryTextIndex: MemoryTextIndex = {
  metaExtras(record: MemoryRecord) {
    const text = `${record.slug}\n${record.description}\n${record.body}`;
    const document = bm25Document(record);
    return {
      search_words: sql`to_tsvector('simple', ${tokenizeWords(text).join(" ")}::text)`,
      search_text: foldText(text),
      search_tokens: document.tokens,
      word_length: document.wordLength,
      trigram_length: document.trigramLength,
    };
  },

  async afterUpsert(transaction, id, record) {
    await recordBm25Lengths(transaction, id, bm25Document(record));
  },

  async afterDelete(transaction, id) {
    await forgetBm25Lengths(transaction, id);
  },

  async beforeCommit(transaction) {
    await flushBm25Statistics(transaction);
  },

  async search(db, query: MemoryTextQuery) {
    const terms = parseSearchTerms(query.terms);
    if (query.limit <= 0 || query.scopes.length === 0) return [];
    const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
    if (query.index === "words") {
      const phrases = terms.filter((term) => term.words.length > 0).map((term) => term.words);
      if (phrases.length === 0) return [];
      const queries = phrases.map((words) => sql`to_tsquery('simple', ${words.map(lexeme).join(" <-> ")}::text)`);
      const statistics = await readStatistics(
        db,
        "word_tokens",
        queries.map((tsquery) => sql`m.search_words @@ ${tsquery}`),
      );
      if (statistics === undefined) return [];
      const scored = phrases.map((words, index) => ({
        frequency: occurrences(sql`m.search_tokens`, spacedPhrase(words)),
        idf: fts5Idf(statistics.rowCount, statistics.documentFrequencies[index] ?? 0),
      }));
      const any = sql`m.search_words @@ (${sql.join(queries, sql` || `)})`;
      return scoredSearch(db, any, filter, bm25Sum(scored, sql`m.word_length`, statistics.averageLength), query.limit);
    }
    if (terms.length === 0) return [];
    const long = terms.filter((term) => codePointLength(term.text) >= 3).map((term) => term.text);
    const short = terms.filter((term) => codePointLength(term.text) < 3).map((term) => term.text);
    const matches = terms.map((term) => sql`m.search_text like ${containsPattern(term.text)}::text`);
    const parts: RawBuilder<unknown>[] = short.map((term) => saturation(occurrences(sql`m.search_text`, term)));
    if (long.length > 0) {
      const statistics = await readStatistics(
        db,
        "trigram_tokens",
        long.map((term) => sql`m.search_text like ${containsPattern(term)}::text`),
      );
      if (statistics === undefined) return [];
      const scored = long.map((term, index) => ({
        frequency: occurrences(sql`m.search_text`, term),
        idf: fts5Idf(statistics.rowCount, statistics.documentFrequencies[index] ?? 0),
      }));
      parts.push(bm25Sum(scored, sql`m.trigram_length`, statistics.averageLength));
    }
    return scoredSearch(db, sql`(${sql.join(matches, sql` or `)})`, filter, sql.join(parts, sql` + `), query.limit);
  },
};

interface Statistics {
  readonly rowCount: number;
  readonly averageLength: number;
  readonly documentFrequencies: readonly number[];
}

/** The whole table's row count, average length (of `column` totals) and the number of rows each condition holds for. */
async function readStatistics(
  db: MemorySqlExecutor,
  column: "word_tokens" | "trigram_tokens",
  conditions: readonly RawBuilder<unknown>[],
): Promise<Statistics | undefined> {
  const counts = conditions.map((condition, index) => sql`(select count(*) from ${META_TABLE_SQL} m where ${condition}) as ${sql.ref(`d${index}`)}`);
  const { rows } = await sql<Record<string, string | number>>`select s.row_count, s.${sql.ref(column)} as tokens, ${sql.join(counts)}
    from ${sql.table(POSTGRES_MEMORY_STATS_TABLE)} s where s.id = 1`.execute(db);
  const row = rows[0];
  const rowCount = Number(row?.row_count ?? 0);
  if (row === undefined || rowCount <= 0) return undefined;
  return {
    rowCount,
    averageLength: Number(row.tokens) / rowCount,
    documentFrequencies: conditions.map((_, index) => Number(row[`d${index}`] ?? 0)),
  };
}

/** `-Σ idf · tf · 2.2 / (tf + 1.2 · (0.25 + 0.75 · length / avgdl))`, FTS5's `bm25()`. */
function bm25Sum(terms: readonly ScoredTerm[], length: RawBuilder<unknown>, averageLength: number): RawBuilder<unknown> {
  const norm = sql`(${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * ${length} / ${averageLength > 0 ? averageLength : 1}::float8))`;
  const parts = terms.map(({ frequency, idf }) => sql`(${idf}::float8 * ${frequency} * ${K1 + 1}::float8 / (${frequency} + ${norm}))`);
  return sql`-(${sql.join(parts, sql` + `)})`;
}

/** `-(tf · 2.2) / (tf + 1.2)`: BM25's saturation alone, for scanned short terms. */
function saturation(frequency: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(-(${frequency}) * 2.2 / (${frequency} + 1.2))`;
}

/** Non-overlapping occurrences of `needle` in a text column, as float8. */
function occurrences(column: RawBuilder<unknown>, needle: string): RawBuilder<unknown> {
  return sql`((length(${column}) - length(replace(${column}, ${needle}::text, ''))) / length(${needle}::text))::float8`;
}

/** Rows matching `match` and `filter`, scored, best first; rows whose score is not below zero are dropped (a phrase across two columns). */
async function scoredSearch(
  db: MemorySqlExecutor,
  match: RawBuilder<unknown>,
  filter: RawBuilder<unknown>,
  score: RawBuilder<unknown>,
  limit: number,
): Promise<MemoryTextIndexHit[]> {
  const { rows } = await sql<ScoredRow>`select * from (select ${META_COLUMNS_SQL}, ${score} as score
      from ${META_TABLE_SQL} m where ${match} and ${filter}) m
    where m.score < 0
    order by m.score, m.updated_at desc, m.slug
    limit ${limit}`.execute(db);
  return rows.map(({ score: rank, ...row }) => ({ row, rank: Number(rank) }));
}
