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
import { foldText } from "../ports/plain-bm25.js";
import {
  POSTGRES_MEMORY_SCOPE_STATS_TABLE,
  POSTGRES_MEMORY_TERMS_TABLE,
  bm25Document,
  flushBm25Statistics,
  forgetBm25Lengths,
  recordBm25Lengths,
  scopeLexeme,
  searchWordsSql,
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

/**
 * Turns off the GIN indexes' pending lists (`fastupdate`) and merges what is
 * pending (a migration step calls it). With a pending list every search
 * scans all of it, up to 4 MB, until a vacuum merges it into the index; a
 * memory store writes seldom and searches often, so each write updates the
 * index at once instead. Measured at 100,000 entries right after a bulk
 * load: search p50 11.1 -> 7.0 ms; the bulk load itself 449 -> 257 entries/s.
 */
export async function disablePostgresGinPendingLists(db: MemorySqlExecutor): Promise<void> {
  for (const index of ["memory_meta_search_words", "memory_meta_search_text_trgm"]) {
    await sql`alter index ${sql.table(index)} set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
}

const K1 = 1.2;
const B = 0.75;

/** A `tsquery` lexeme literal. */
function lexeme(token: string): string {
  return `'${token.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

type ScoredRow = MemoryMetaRow & { score: number };

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
      search_words: searchWordsSql(record, record),
      search_text: foldText(text),
      search_tokens: document.tokens,
      word_length: document.wordLength,
      trigram_length: document.trigramLength,
    };
  },

  async afterUpsert(transaction, id, record) {
    await recordBm25Lengths(transaction, id, record, bm25Document(record));
  },

  async afterDelete(transaction, id) {
    await forgetBm25Lengths(transaction, id);
  },

  async beforeCommit(transaction) {
    await flushBm25Statistics(transaction);
  },

  // Every write updates a scope-totals row and its words' document-frequency rows, and every search reads them: after
  // a bulk load they hold thousands of dead row versions that searches step over until autovacuum comes round (at
  // 100,000 entries a query that finds nothing took 13.7 ms p50 right after the load, 6.4 ms with this). Vacuuming the
  // two small tables costs milliseconds. A role that does not own them gets a warning, not an error.
  async tidy(db) {
    await sql`vacuum ${sql.table(POSTGRES_MEMORY_SCOPE_STATS_TABLE)}, ${sql.table(POSTGRES_MEMORY_TERMS_TABLE)}`.execute(db);
  },

  async search(db, query: MemoryTextQuery) {
    const terms = parseSearchTerms(query.terms);
    if (query.limit <= 0 || query.scopes.length === 0) return [];
    const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
    return query.index === "words"
      ? wordSearch(
          db,
          terms.filter((term) => term.words.length > 0).map((term) => term.words),
          query,
          filter,
        )
      : trigramSearch(
          db,
          terms.map((term) => term.text),
          query,
          filter,
        );
  },
};

const tsquery = (words: readonly string[]): RawBuilder<unknown> => sql`to_tsquery('simple', ${words.map(lexeme).join(" <-> ")}::text)`;

/**
 * Word search in one statement (one round trip): the whole table's row
 * count and token total from the scope totals and each word's document
 * count from the terms table, read through scalar subqueries (run once),
 * and the rows of the asked scopes found through the `tsvector` index
 * (narrowed to the scope lexemes) and scored. A phrase's document count is
 * estimated from its count in those rows, scaled by the whole table's rows
 * over the scopes' rows (exact when the scopes hold every row). Rows whose
 * score is not below zero (a phrase across two columns) are dropped.
 */
async function wordSearch(
  db: MemorySqlExecutor,
  phrases: readonly (readonly string[])[],
  query: MemoryTextQuery,
  filter: RawBuilder<unknown>,
): Promise<MemoryTextIndexHit[]> {
  if (phrases.length === 0) return [];
  // The query's single words cut out of the row's tsvector once (`query_words`, a copy of the whole vector per row),
  // then each word's positions cut out of that small vector as text (`'word':3A,17A`), computed once per row below
  // `offset 0`.
  const singles = phrases.filter((words) => words.length === 1).map((words) => words[0] as string);
  const positions = phrases.map((words, index) =>
    words.length === 1
      ? sql`ts_filter(setweight(m.query_words, 'B', array[${words[0]}::text]), '{b}')::text as ${sql.ref(`p${index}`)}`
      : sql`null::text as ${sql.ref(`p${index}`)}`,
  );
  const queryWords = singles.length === 0 ? sql`''::tsvector` : sql`ts_filter(setweight(m.search_words, 'A', ${singles}::text[]), '{a}')`;
  // A phrase is counted in the token string (as long as the body) only in rows whose tsvector holds it.
  const tfs = phrases.map(
    (words, index) =>
      sql`${words.length === 1 ? wordOccurrences(words[0] as string, sql.ref(`m.p${index}`)) : phraseOccurrences(words)} as ${sql.ref(`tf${index}`)}`,
  );
  const counts = phrases.map((_, index) => sql`count(*) filter (where ${sql.ref(`m.tf${index}`)} > 0)::float8 as ${sql.ref(`d${index}`)}`);
  const documents = phrases.map(
    (words, index) =>
      sql`${
        words.length === 1
          ? sql`coalesce((select t.df from ${sql.table(POSTGRES_MEMORY_TERMS_TABLE)} t where t.term = ${words[0]}::text), 0)::float8`
          : sql`(${sql.ref(`d.d${index}`)} * st.row_count / st.scoped_rows)`
      } as ${sql.ref(`n${index}`)}`,
  );
  const weights = termWeightsSql(
    sql`select st.row_count, st.average_length, ${sql.join(documents)} from st${phrases.some((words) => words.length > 1) ? sql`, d` : sql``}`,
    phrases.map((_, index) => index),
  );
  const parts = phrases.map((_, index) => termBm25(sql.ref(`w.idf${index}`), sql.ref(`m.tf${index}`), sql`m.word_length`, sql`w.average_length`));
  const scopes = query.scopes.map((scope) => lexeme(scopeLexeme(scope))).join(" | ");
  const match = sql`m.search_words @@ ((${sql.join(phrases.map(tsquery), sql` || `)}) && to_tsquery('simple', ${scopes}::text))`;
  // `hits` is materialized so each term frequency is computed once per row; the totals and each term's IDF are one row
  // (`w`) computed once; the score is computed once per hit (`offset 0` keeps the filter and the sort from repeating it).
  const phraseCounts = phrases.some((words) => words.length > 1) ? sql`, d as (select ${sql.join(counts)} from hits m)` : sql``;
  const { rows: hits } = await sql<ScoredRow>`with st as (
      select coalesce(sum(s.row_count), 0)::float8 as row_count,
        coalesce(nullif(coalesce(sum(s.word_tokens), 0)::float8 / nullif(sum(s.row_count), 0)::float8, 0), 1) as average_length,
        greatest(coalesce(sum(s.row_count) filter (where ${scopedStatsSql(query)}), 0), 1)::float8 as scoped_rows
      from ${sql.table(POSTGRES_MEMORY_SCOPE_STATS_TABLE)} s
    ), hits as materialized (
      select ${META_COLUMNS_SQL}, m.word_length, ${sql.join(tfs)}
      from (select m.*, ${sql.join(positions)} from (select m.*, ${queryWords} as query_words from ${META_TABLE_SQL} m
        where ${match} and ${scopeFilterSql(query.scopes)} offset 0) m offset 0) m
    )${phraseCounts}, w as materialized (${weights})
    select * from (select ${META_COLUMNS_SQL}, (${sql.join(parts, sql` + `)}) as score from hits m cross join w
      where ${filter} and w.row_count > 0 offset 0) m
    where m.score < 0
    order by m.score, m.updated_at desc, m.slug
    limit ${query.limit}`.execute(db);
  return hits.map(({ score: rank, ...hit }) => ({ row: hit, rank: Number(rank) }));
}

/** The asked scopes' rows of the scope totals (alias `s`). */
function scopedStatsSql(query: MemoryTextQuery): RawBuilder<unknown> {
  return sql`(${sql.join(
    query.scopes.map((scope) => sql`(s.scope = ${scope.scope} and s.workdir_hash = ${scope.workdirHash})`),
    sql` or `,
  )})`;
}

/** FTS5's IDF in SQL from a (possibly estimated) document count: `ln((N - n + 0.5) / (n + 0.5))`, 1e-6 where not positive. */
function idfSql(documentFrequency: RawBuilder<unknown>, rowCount: RawBuilder<unknown>): RawBuilder<unknown> {
  const ratio = sql`ln((${rowCount} - ${documentFrequency} + 0.5) / (${documentFrequency} + 0.5))`;
  return sql`(case when ${ratio} > 0 then ${ratio} else 1e-6 end)`;
}

/** One term's part of FTS5's `bm25()`: `-idf · tf · 2.2 / (tf + 1.2 · (0.25 + 0.75 · length / avgdl))`. */
function termBm25(idf: RawBuilder<unknown>, tf: RawBuilder<unknown>, length: RawBuilder<unknown>, averageLength: RawBuilder<unknown>): RawBuilder<unknown> {
  const norm = sql`(${K1}::float8 * (1 - ${B}::float8 + ${B}::float8 * ${length} / ${averageLength}))`;
  return sql`(-(${idf} * ${tf} * ${K1 + 1}::float8 / (${tf} + ${norm})))`;
}

/**
 * Trigram search in one statement: the rows of the asked scopes holding any
 * term (`LIKE`, served by the trigram index or the scope's primary key) and
 * each term's occurrences in them; a term's document count over the whole
 * table is estimated from its count in those scopes, scaled by the whole
 * table's rows over the scopes' rows (exact when the scopes hold every
 * row). Terms of three or more characters score as FTS5's `bm25()` on the
 * trigram table; shorter ones by occurrence count with BM25's saturation
 * only, as SQLite scans for them.
 */
async function trigramSearch(
  db: MemorySqlExecutor,
  texts: readonly string[],
  query: MemoryTextQuery,
  filter: RawBuilder<unknown>,
): Promise<MemoryTextIndexHit[]> {
  if (texts.length === 0) return [];
  const frequencies = texts.map((text, index) => sql`${occurrences(sql`m.search_text`, text)} as ${sql.ref(`tf${index}`)}`);
  const counts = texts.map((_, index) => sql`count(*) filter (where ${sql.ref(`h.tf${index}`)} > 0)::float8 as ${sql.ref(`d${index}`)}`);
  const scored = texts.flatMap((text, index) => (codePointLength(text) < 3 ? [] : [index]));
  const documents = scored.map((index) => sql`(${sql.ref(`d.d${index}`)} * s.row_count / greatest(s.scoped_rows, 1)) as ${sql.ref(`n${index}`)}`);
  const weights = termWeightsSql(
    sql`select ${sql.join([sql`s.row_count`, sql`greatest(s.tokens / greatest(s.row_count, 1), 1e-9) as average_length`, ...documents])} from s, d`,
    scored,
  );
  const parts = texts.map((text, index) => {
    const tf = sql.ref(`m.tf${index}`);
    return codePointLength(text) < 3 ? saturation(tf) : termBm25(sql.ref(`w.idf${index}`), tf, sql`m.trigram_length`, sql`w.average_length`);
  });
  const matches = texts.map((text) => sql`m.search_text like ${containsPattern(text)}::text`);
  const { rows } = await sql<ScoredRow>`with hits as materialized (
      select ${META_COLUMNS_SQL}, m.trigram_length, ${sql.join(frequencies)}
      from ${META_TABLE_SQL} m where (${sql.join(matches, sql` or `)}) and ${scopeFilterSql(query.scopes)}
    ), s as (
      select coalesce(sum(s.row_count), 0)::float8 as row_count, coalesce(sum(s.trigram_tokens), 0)::float8 as tokens,
        coalesce(sum(s.row_count) filter (where ${scopedStatsSql(query)}), 0)::float8 as scoped_rows
      from ${sql.table(POSTGRES_MEMORY_SCOPE_STATS_TABLE)} s
    ), d as (select ${sql.join(counts)} from hits h), w as materialized (${weights})
    select * from (select ${META_COLUMNS_SQL}, (${sql.join(parts, sql` + `)}) as score from hits m cross join w where ${filter} offset 0) m
    where m.score < 0
    order by m.score, m.updated_at desc, m.slug
    limit ${query.limit}`.execute(db);
  return rows.map(({ score: rank, ...row }) => ({ row, rank: Number(rank) }));
}

/**
 * The one row of weights a search joins to every hit (as `w`): the totals
 * `row_count` and `average_length` and, for each term index in `terms`,
 * `idf<i>` from the document count `n<i>` that `source` (a one-row select of
 * `row_count`, `average_length` and the `n<i>`) gives. Computed once: a
 * scalar subquery per use would make PostgreSQL plan each one (planning
 * and parsing cost more than running the statement).
 */
function termWeightsSql(source: RawBuilder<unknown>, terms: readonly number[]): RawBuilder<unknown> {
  const idfs = terms.map((index) => sql`${idfSql(sql.ref(`x.n${index}`), sql`x.row_count`)} as ${sql.ref(`idf${index}`)}`);
  return sql`select ${sql.join([sql`x.row_count`, sql`x.average_length`, ...idfs])} from (${source}) x`;
}

/** `-(tf · 2.2) / (tf + 1.2)`: BM25's saturation alone, for scanned short terms. */
function saturation(frequency: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(-(${frequency}) * 2.2 / (${frequency} + 1.2))`;
}

/**
 * A word's occurrences in row `m`, from `positions`, its lexeme's positions
 * in the `tsvector` as text (`'word':3A,17A`, empty where the row lacks it;
 * a word token holds no comma or quote, so the positions are the commas
 * plus one): no per-row subquery, and the token string (a toasted column as
 * long as the body) is not read. A row without the lexeme counts 0, as the
 * `tsvector` match does (the two differ only where PostgreSQL's parser would
 * split a token the word tokenizer keeps whole, which the C locale never
 * does). A lexeme keeps at most 256 positions and positions stop at 16,383,
 * so where the count could be clipped it is counted in the token string
 * instead.
 */
function wordOccurrences(word: string, positions: RawBuilder<unknown>): RawBuilder<unknown> {
  const count = sql`(length(${positions}) - length(replace(${positions}, ',', '')) + 1)`;
  return sql`(case when ${positions} = '' then 0::float8 when m.word_length < 16000 and ${count} < 256 then ${count}::float8
      else ${occurrences(sql`m.search_tokens`, spacedPhrase([word]))} end)`;
}

/**
 * A phrase's occurrences in row `m`'s token string, 0 without reading it
 * where the row's `tsvector` lacks the phrase (its positions stop at
 * 16,383, so long rows are always counted).
 */
function phraseOccurrences(words: readonly string[]): RawBuilder<unknown> {
  return sql`(case when m.word_length >= 16000 or m.search_words @@ ${tsquery(words)} then ${occurrences(sql`m.search_tokens`, spacedPhrase(words))} else 0::float8 end)`;
}

/** Non-overlapping occurrences of `needle` in a text column, as float8. */
function occurrences(column: RawBuilder<unknown>, needle: string): RawBuilder<unknown> {
  return sql`((length(${column}) - length(replace(${column}, ${needle}::text, ''))) / length(${needle}::text))::float8`;
}
