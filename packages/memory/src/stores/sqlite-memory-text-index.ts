/**
 * The SQLite text indexes: two FTS5 tables over the folded slug,
 * description and body, keyed by the meta row's id, plus a `scope_key`
 * column holding one token per scope so that FTS5 itself narrows a search
 * to the asked scopes before ranking (BM25 weight 0 for that column). `memory_fts` splits
 * words (unicode61, diacritics removed); `memory_fts_tri` indexes trigrams,
 * so any substring of three or more characters (CJK included) is found.
 * Shorter trigram terms cannot use it and scan with LIKE instead.
 */
import { type RawBuilder, sql } from "kysely";
import type { MemoryRecord } from "../domain/memory-types.js";
import { codePointLength, parseSearchTerms, searchTypes } from "../ports/memory-index-query.js";
import type { MemoryScopeRef, MemoryTextQuery } from "../ports/memory-index-store.js";
import { foldText } from "../ports/plain-bm25.js";
import type { MemoryMetaRow } from "./memory-rows.js";
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

/** The FTS5 word table. */
export const SQLITE_MEMORY_FTS_TABLE = "memory_fts";
/** The FTS5 trigram table. */
export const SQLITE_MEMORY_TRIGRAM_TABLE = "memory_fts_tri";

/** Creates both FTS5 tables (a migration step calls it). */
export async function createSqliteMemoryTextIndexes(db: MemorySqlExecutor): Promise<void> {
  await sql`create virtual table ${sql.table(SQLITE_MEMORY_FTS_TABLE)} using fts5(scope_key, slug, description, body, tokenize = 'unicode61 remove_diacritics 2')`.execute(
    db,
  );
  await sql`create virtual table ${sql.table(SQLITE_MEMORY_TRIGRAM_TABLE)} using fts5(scope_key, slug, description, body, tokenize = 'trigram remove_diacritics 1')`.execute(
    db,
  );
}

/** An FTS5 string literal: double quotes, inner quotes doubled. */
function quote(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

type ScoredRow = MemoryMetaRow & { score: number };

/**
 * The `scope_key` of one scope in one table. The word table gets one token
 * (`zscopeglobal`, `zscopep<hash>`). The trigram table gets exactly three
 * characters, one trigram: `⁂⁂⁂` for global, `⁂` and two private-use
 * characters from a 24-bit hash of the workdir hash for a project. A longer
 * key would cost BM25 a position list per trigram on every hit; two projects
 * that share a key are still told apart by the meta filter of the query.
 */
function scopeKey(scope: MemoryScopeRef, table: string): string {
  if (table === SQLITE_MEMORY_FTS_TABLE) return scope.scope === "global" ? "zscopeglobal" : `zscopep${foldText(scope.workdirHash)}`;
  if (scope.scope === "global") return "⁂⁂⁂";
  const hash = fnv1a24(scope.workdirHash);
  return `⁂${String.fromCodePoint(0xe000 + (hash >>> 12))}${String.fromCodePoint(0xe000 + (hash & 0xfff))}`;
}

/** FNV-1a over UTF-16 code units, folded to 24 bits. */
function fnv1a24(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return ((hash >>> 24) ^ hash) & 0xffffff;
}

/** The MATCH expression: one of the scopes, and any of the terms in slug, description or body. */
function matchExpression(table: string, scopes: readonly MemoryScopeRef[], terms: readonly string[]): string {
  return `scope_key : (${scopes.map((scope) => quote(scopeKey(scope, table))).join(" OR ")}) AND {slug description body} : (${terms.join(" OR ")})`;
}

/**
 * The {@link MemoryTextIndex} of SQLite. Every search is one statement that
 * joins the meta rows by id, filters scope and type and orders by `bm25()`;
 * a trigram query with terms shorter than three characters adds one LIKE
 * scan for those, ranked by occurrence count.
 */
export const sqliteMemoryTextIndex: MemoryTextIndex = {
  metaExtras: () => ({}),

  async afterUpsert(transaction, id, record: MemoryRecord) {
    const values = [foldText(record.slug), foldText(record.description), foldText(record.body)];
    for (const table of [SQLITE_MEMORY_FTS_TABLE, SQLITE_MEMORY_TRIGRAM_TABLE]) {
      await sql`delete from ${sql.table(table)} where rowid = ${id}`.execute(transaction);
      await sql`insert into ${sql.table(table)} (rowid, scope_key, slug, description, body) values (${id}, ${scopeKey(record, table)}, ${values[0]}, ${values[1]}, ${values[2]})`.execute(
        transaction,
      );
    }
  },

  async afterDelete(transaction, id) {
    for (const table of [SQLITE_MEMORY_FTS_TABLE, SQLITE_MEMORY_TRIGRAM_TABLE]) {
      await sql`delete from ${sql.table(table)} where rowid = ${id}`.execute(transaction);
    }
  },

  async search(db, query: MemoryTextQuery) {
    const terms = parseSearchTerms(query.terms);
    if (query.limit <= 0 || query.scopes.length === 0) return [];
    const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(searchTypes(query), query.includeArchived)}`;
    if (query.index === "words") {
      const phrases = terms.filter((term) => term.words.length > 0).map((term) => quote(term.words.join(" ")));
      return phrases.length === 0
        ? []
        : matchSearch(db, SQLITE_MEMORY_FTS_TABLE, matchExpression(SQLITE_MEMORY_FTS_TABLE, query.scopes, phrases), filter, query.limit);
    }
    const long = terms.filter((term) => codePointLength(term.text) >= 3).map((term) => quote(term.text));
    const short = terms.filter((term) => codePointLength(term.text) < 3).map((term) => term.text);
    const hits = [
      ...(long.length > 0
        ? await matchSearch(db, SQLITE_MEMORY_TRIGRAM_TABLE, matchExpression(SQLITE_MEMORY_TRIGRAM_TABLE, query.scopes, long), filter, query.limit)
        : []),
      ...(short.length > 0 ? await likeSearch(db, short, filter, query.limit) : []),
    ];
    return mergeHits(hits, query.limit);
  },
};

async function matchSearch(db: MemorySqlExecutor, table: string, match: string, filter: RawBuilder<unknown>, limit: number): Promise<MemoryTextIndexHit[]> {
  const fts = sql.table(table);
  const { rows } = await sql<ScoredRow>`select ${META_COLUMNS_SQL}, bm25(${fts}, 0, 1, 1, 1) as score
    from ${fts} join ${META_TABLE_SQL} m on m.id = ${fts}.rowid
    where ${fts} match ${match} and ${filter}
    order by score, m.updated_at desc, m.slug
    limit ${limit}`.execute(db);
  return rows.map(({ score, ...row }) => ({ row, rank: Number(score) }));
}

/**
 * Terms of one or two characters: a scan of the folded columns of the asked
 * scopes only (the CROSS JOIN makes SQLite walk the meta rows of those scopes
 * by primary key and fetch each one's FTS row by rowid, instead of scanning
 * every FTS row), each term ranked by its occurrences with BM25's saturation.
 */
async function likeSearch(db: MemorySqlExecutor, terms: readonly string[], filter: RawBuilder<unknown>, limit: number): Promise<MemoryTextIndexHit[]> {
  const tri = sql.table(SQLITE_MEMORY_TRIGRAM_TABLE);
  const columns = ["slug", "description", "body"].map((column) => sql.ref(`${SQLITE_MEMORY_TRIGRAM_TABLE}.${column}`));
  const matches = terms.flatMap((term) => columns.map((column) => sql`${column} like ${containsPattern(term)} escape '\\'`));
  const ranks = terms.map((term) => {
    const occurrences = sql.join(
      columns.map((column) => sql`(length(${column}) - length(replace(${column}, ${term}, ''))) / length(${term})`),
      sql` + `,
    );
    return sql`(-(${occurrences}) * 2.2 / ((${occurrences}) + 1.2))`;
  });
  const { rows } = await sql<ScoredRow>`select ${META_COLUMNS_SQL}, (${sql.join(ranks, sql` + `)}) as score
    from ${META_TABLE_SQL} m cross join ${tri} on ${tri}.rowid = m.id
    where (${sql.join(matches, sql` or `)}) and ${filter}
    order by score, m.updated_at desc, m.slug
    limit ${limit}`.execute(db);
  return rows.map(({ score, ...row }) => ({ row, rank: Number(score) }));
}

/** Sums the ranks of a row found by both statements; best first, then newest, then slug. */
function mergeHits(hits: readonly MemoryTextIndexHit[], limit: number): MemoryTextIndexHit[] {
  const merged = new Map<string, MemoryTextIndexHit>();
  for (const hit of hits) {
    const id = String(hit.row.id);
    const previous = merged.get(id);
    merged.set(id, previous === undefined ? hit : { row: hit.row, rank: previous.rank + hit.rank });
  }
  return [...merged.values()]
    .sort(
      (left, right) =>
        left.rank - right.rank ||
        Number(right.row.updated_at) - Number(left.row.updated_at) ||
        (left.row.slug < right.row.slug ? -1 : left.row.slug > right.row.slug ? 1 : 0),
    )
    .slice(0, limit);
}
