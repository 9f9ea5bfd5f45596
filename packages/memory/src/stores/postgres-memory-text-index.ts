/**
 * The PostgreSQL text indexes, kept as two columns of the meta row so a
 * write is one statement: `search_words`, a `tsvector` (config `simple`)
 * of the folded word tokens with a GIN index, and `search_text`, the folded
 * slug, description and body with a `pg_trgm` GIN index for substring
 * search.
 *
 * Diacritics are removed in TypeScript ({@link foldText}) before storing and
 * before querying, rather than with the `unaccent` extension: the fold is
 * then the same on every backend and needs no extension beyond `pg_trgm`.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { parseSearchTerms, searchTypes } from "../ports/memory-index-query.js";
import type { MemoryTextQuery } from "../ports/memory-index-store.js";
import { foldText, tokenizeWords } from "../ports/plain-bm25.js";
import { MEMORY_META_TABLE, type MemoryMetaRow } from "./memory-rows.js";
import {
  META_COLUMNS_SQL,
  META_TABLE_SQL,
  type MemorySqlExecutor,
  type MemoryTextIndex,
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

/** A `tsquery` lexeme literal. */
function lexeme(token: string): string {
  return `'${token.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

type ScoredRow = MemoryMetaRow & { score: number };

/**
 * The {@link MemoryTextIndex} of PostgreSQL. Word search ranks with
 * `ts_rank_cd` and returns `-rank` (lower is better, as BM25 from SQLite);
 * trigram search matches `LIKE '%term%'` on the folded text (the trigram
 * index serves terms of three or more characters, shorter ones scan) and
 * ranks by each term's occurrence count with BM25's saturation.
 */
export const postgresMemoryTextIndex: MemoryTextIndex = {
  metaExtras(record: MemoryRecord) {
    const text = `${record.slug}\n${record.description}\n${record.body}`;
    return {
      search_words: sql`to_tsvector('simple', ${tokenizeWords(text).join(" ")}::text)`,
      search_text: foldText(text),
    };
  },

  async afterUpsert() {},

  async afterDelete() {},

  async search(db, query: MemoryTextQuery) {
    const terms = parseSearchTerms(query.terms);
    if (query.limit <= 0) return [];
    const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
    let rows: ScoredRow[];
    if (query.index === "words") {
      const phrases = terms.filter((term) => term.words.length > 0).map((term) => `(${term.words.map(lexeme).join(" <-> ")})`);
      if (phrases.length === 0) return [];
      ({ rows } = await sql<ScoredRow>`select ${META_COLUMNS_SQL}, -ts_rank_cd(m.search_words, q.query) as score
        from ${META_TABLE_SQL} m, to_tsquery('simple', ${phrases.join(" | ")}::text) as q(query)
        where m.search_words @@ q.query and ${filter}
        order by score, m.updated_at desc, m.slug
        limit ${query.limit}`.execute(db));
    } else {
      if (terms.length === 0) return [];
      const matches = terms.map((term) => sql`m.search_text like ${containsPattern(term.text)}::text`);
      const ranks = terms.map((term) => occurrenceRank(term.text));
      ({ rows } = await sql<ScoredRow>`select ${META_COLUMNS_SQL}, (${sql.join(ranks, sql` + `)}) as score
        from ${META_TABLE_SQL} m
        where (${sql.join(matches, sql` or `)}) and ${filter}
        order by score, m.updated_at desc, m.slug
        limit ${query.limit}`.execute(db));
    }
    return rows.map(({ score, ...row }) => ({ row, rank: Number(score) }));
  },
};

/** `-(tf * 2.2) / (tf + 1.2)` of a term's occurrences in the folded text. */
function occurrenceRank(term: string): RawBuilder<unknown> {
  const occurrences = sql`((length(m.search_text) - length(replace(m.search_text, ${term}::text, ''))) / length(${term}::text))::float8`;
  return sql`(-(${occurrences}) * 2.2 / (${occurrences} + 1.2))`;
}
