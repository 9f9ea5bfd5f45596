import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import type { Storage } from "@agent-tools/storage";
import { type Kysely, sql } from "kysely";
import type { MemoryAuditEntry, MemoryKey, MemoryOrganizeRun, MemoryRecord } from "../domain/memory-types.js";
import { assertStorableRecord, listTypes, memoryKeyId } from "../ports/memory-index-query.js";
import type {
  MemoryBatchConflict,
  MemoryFileState,
  MemoryIndexChange,
  MemoryIndexStore,
  MemoryListPage,
  MemoryListQuery,
  MemoryScopeRef,
  MemoryTextHit,
  MemoryTextQuery,
} from "../ports/memory-index-store.js";
import type { MemoryVectorBacklogQuery, MemoryVectorHits, MemoryVectorIndexKind, MemoryVectorQuery, MemoryVectorRow } from "../ports/memory-vector-index.js";
import { memoryVectorBacklog, pruneMemoryVectors, putMemoryVectors, searchMemoryVectors } from "./kysely-memory-vectors.js";
import { preparePgvector, searchPgvector } from "./postgres-pgvector.js";
import { MEMORY_STORAGE_MIGRATIONS, MEMORY_STORAGE_NAMESPACE } from "./memory-migrations.js";
import { bumpMemoryScopeVersions, compareCodePoints } from "./memory-scope-versions.js";
import type { ScopeVectors } from "./memory-scope-vectors.js";
import { DEFAULT_VECTOR_CACHE_BYTES, ScopeValueCache, assertVectorCacheBytes } from "./memory-vector-cache.js";
import {
  MEMORY_AUDIT_TABLE,
  MEMORY_META_TABLE,
  MEMORY_ORGANIZE_RUNS_TABLE,
  type MemoryAuditRow,
  type MemoryMetaRow,
  type MemoryOrganizeRunRow,
  auditRowToEntry,
  metaRowToRecord,
  organizeRunRowToRun,
  recordToMetaValues,
  META_VALUE_COLUMNS,
} from "./memory-rows.js";
import { MEMORY_TIDY_AFTER_CHANGES, META_COLUMNS_SQL, type MemoryTextIndex, scopeFilterSql, typeAndArchiveFilterSql } from "./memory-text-index.js";
import { postgresMemoryTextIndex } from "./postgres-memory-text-index.js";
import { sqliteMemoryTextIndex } from "./sqlite-memory-text-index.js";

interface MemoryDatabase {
  [MEMORY_META_TABLE]: MemoryMetaRow;
  [MEMORY_AUDIT_TABLE]: MemoryAuditRow;
  [MEMORY_ORGANIZE_RUNS_TABLE]: MemoryOrganizeRunRow;
}

type BatchResult = { readonly ok: true } | { readonly ok: false; readonly conflicts: readonly MemoryBatchConflict[] };

/** Thrown inside the batch transaction to roll it back when an expectation failed. */
class BatchConflict {
  constructor(readonly conflicts: readonly MemoryBatchConflict[]) {}
}

/** Meta columns an unconditional upsert replaces (all but the key and the id). */
const UPDATABLE_COLUMNS = META_VALUE_COLUMNS;
const STORE_OPTION_KEYS = ["vectorCacheBytes"] as const;

/** Options of {@link KyselyMemoryIndexStore.open}. */
export interface KyselyMemoryIndexStoreOptions {
  /**
   * Bytes of decoded vectors the store keeps between vector searches, per
   * scope, model id and dimension (least recently used out first). A kept
   * scope is read again once any writer, in this process or another, has
   * changed its entries or vectors. Default {@link DEFAULT_VECTOR_CACHE_BYTES}
   * (64 MiB); 0 reads the vectors from the database on every search.
   */
  readonly vectorCacheBytes?: number;
}

/** The cache budget of `options`; throws `SdkError("invalid_options")` naming an unknown key or an invalid value. */
function resolveStoreOptions(options: unknown): number {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new SdkError("invalid_options", "KyselyMemoryIndexStore.open: options must be an object.");
  }
  for (const key of Object.keys(options)) {
    if ((STORE_OPTION_KEYS as readonly string[]).includes(key)) continue;
    const suggestion = closestName(key, STORE_OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `KyselyMemoryIndexStore.open has no option ${JSON.stringify(key)}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Known options: ${STORE_OPTION_KEYS.join(", ")}.`,
      { option: key },
    );
  }
  // Only a missing value takes the default: null (a config file's "no value") is refused like any other non-number.
  const given = (options as KyselyMemoryIndexStoreOptions).vectorCacheBytes;
  const bytes = given === undefined ? DEFAULT_VECTOR_CACHE_BYTES : given;
  assertVectorCacheBytes(bytes);
  return bytes;
}
const DEFAULT_AUDIT_LIMIT = 100;
const DEFAULT_RUN_LIMIT = 50;

/**
 * A {@link MemoryIndexStore} on a `Storage` from `@agent-tools/storage`:
 * SQLite (FTS5 word and trigram tables) or PostgreSQL (tsvector and
 * pg_trgm), same code. A batch is one transaction whose compare-and-set
 * lives in the statements themselves (an INSERT that does nothing on a
 * conflict, an UPDATE or DELETE whose WHERE names the expected
 * `updated_at`), so two writers of one key never both win. The store does
 * not own the storage: close the storage yourself.
 *
 * On SQLite, share one `Storage` per file within a process (see
 * `leaseSqliteStorage`): a second connection of the same process would wait
 * for the first's write lock by blocking the thread.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const store = await KyselyMemoryIndexStore.open(storage);
 * await store.search({ scopes: [{ scope: "global", workdirHash: "" }], index: "words", terms: ["dark"], limit: 8 });
 */
export class KyselyMemoryIndexStore implements MemoryIndexStore {
  readonly #db: Kysely<MemoryDatabase>;
  readonly #dialect: Storage["dialect"];
  readonly #textIndex: MemoryTextIndex;
  /** Rows changed since the text index last tidied up. */
  #changesSinceTidy = 0;
  /** Whether the PostgreSQL database had pgvector installed at open, so searches use it (always false on SQLite). */
  readonly #pgvector: boolean;
  /** Decoded vectors per scope, model and dimension, kept while the scope's version stands. */
  readonly #vectorCache: ScopeValueCache<ScopeVectors>;

  private constructor(storage: Storage, pgvector: boolean, vectorCacheBytes: number) {
    this.#db = storage.db as Kysely<MemoryDatabase>;
    this.#pgvector = pgvector;
    this.#vectorCache = new ScopeValueCache(vectorCacheBytes);
    this.#dialect = storage.dialect;
    this.#textIndex = storage.dialect === "postgres" ? postgresMemoryTextIndex : sqliteMemoryTextIndex;
  }

  /**
   * Applies the `memory` migrations, then returns the store. On PostgreSQL
   * it detects pgvector (`vector` in pg_extension): where it is installed,
   * the `memory-pgvector` migrations add the `embedding` column, its trigger
   * and backfill, and `searchVectors` orders by pgvector's inner product
   * (see docs/memory-vectors.md); elsewhere it scans.
   */
  static async open(storage: Storage, options: KyselyMemoryIndexStoreOptions = {}): Promise<KyselyMemoryIndexStore> {
    const vectorCacheBytes = resolveStoreOptions(options);
    await storage.migrate(MEMORY_STORAGE_NAMESPACE, MEMORY_STORAGE_MIGRATIONS);
    return new KyselyMemoryIndexStore(storage, await preparePgvector(storage), vectorCacheBytes);
  }

  /** {@inheritDoc MemoryIndexStore.get} */
  async get(key: MemoryKey): Promise<MemoryRecord | undefined> {
    const { rows } = await sql<MemoryMetaRow>`select ${META_COLUMNS_SQL} from ${sql.table(MEMORY_META_TABLE)} m
      where m.scope = ${key.scope} and m.workdir_hash = ${key.workdirHash} and m.slug = ${key.slug}`.execute(this.#db);
    return rows[0] === undefined ? undefined : metaRowToRecord(rows[0]);
  }

  /** {@inheritDoc MemoryIndexStore.list} */
  async list(query: MemoryListQuery): Promise<MemoryListPage> {
    const filter = sql`${scopeFilterSql(query.scopes)} and ${typeAndArchiveFilterSql(listTypes(query), query.includeArchived)}`;
    const meta = sql.table(MEMORY_META_TABLE);
    const [page, count] = await Promise.all([
      sql<MemoryMetaRow>`select ${META_COLUMNS_SQL} from ${meta} m where ${filter}
        order by m.updated_at desc, m.scope, m.workdir_hash, m.slug
        limit ${Math.max(0, query.limit)} offset ${Math.max(0, query.offset)}`.execute(this.#db),
      sql<{ total: number | string }>`select count(*) as total from ${meta} m where ${filter}`.execute(this.#db),
    ]);
    return { records: page.rows.map(metaRowToRecord), total: Number(count.rows[0]?.total ?? 0) };
  }

  /** {@inheritDoc MemoryIndexStore.countEntries} */
  async countEntries(scope: MemoryScopeRef): Promise<number> {
    const row = await this.#db
      .selectFrom(MEMORY_META_TABLE)
      .select((eb) => eb.fn.countAll().as("total"))
      .where("scope", "=", scope.scope)
      .where("workdir_hash", "=", scope.workdirHash)
      .where("type", "<>", "daily")
      .where("archived", "=", 0)
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /** {@inheritDoc MemoryIndexStore.search} */
  async search(query: MemoryTextQuery): Promise<readonly MemoryTextHit[]> {
    const hits = await this.#textIndex.search(this.#db, query);
    return hits.map((hit) => ({ record: metaRowToRecord(hit.row), bm25: hit.rank }));
  }

  /** {@inheritDoc MemoryIndexStore.applyBatch} */
  async applyBatch(changes: readonly MemoryIndexChange[], audit: readonly MemoryAuditEntry[]): Promise<BatchResult> {
    for (const change of changes) if (change.kind === "upsert") assertStorableRecord(change.record);
    // Writers lock rows in one order (by key in code-point order, PostgreSQL's collate "C" that putVectors locks in;
    // a key's own changes keep theirs), so two writers cannot deadlock.
    const ordered = changes
      .map((change, index) => ({ change, index, id: memoryKeyId(change.kind === "upsert" ? change.record : change.key) }))
      .sort((left, right) => compareCodePoints(left.id, right.id) || left.index - right.index)
      .map(({ change }) => change);
    try {
      await this.#db.transaction().execute(async (transaction) => {
        const conflicts: MemoryBatchConflict[] = [];
        for (const change of ordered) {
          const conflict = change.kind === "upsert" ? await this.#upsert(transaction, change) : await this.#delete(transaction, change);
          if (conflict !== undefined) conflicts.push(conflict);
        }
        if (conflicts.length > 0) throw new BatchConflict(conflicts);
        if (audit.length > 0) {
          await transaction
            .insertInto(MEMORY_AUDIT_TABLE)
            .values(
              audit.map((entry) => ({
                at: entry.at,
                op: entry.op,
                actor: entry.actor,
                scope: entry.scope,
                workdir_hash: entry.workdirHash,
                slug: entry.slug,
                detail_json: entry.detail === undefined ? null : JSON.stringify(entry.detail),
              })) as never,
            )
            .execute();
        }
        await this.#textIndex.beforeCommit?.(transaction);
        // Last: the scopes' versions, so searches read their vectors again.
        await bumpMemoryScopeVersions(
          transaction,
          ordered.map((change) => (change.kind === "upsert" ? change.record : change.key)),
        );
      });
    } catch (error) {
      if (error instanceof BatchConflict) return { ok: false, conflicts: error.conflicts };
      throw error;
    }
    this.#changesSinceTidy += changes.length;
    if (this.#textIndex.tidy !== undefined && this.#changesSinceTidy >= MEMORY_TIDY_AFTER_CHANGES) {
      this.#changesSinceTidy = 0;
      await this.#textIndex.tidy(this.#db).catch(() => undefined); // the write has landed; tidying is best effort
    }
    return { ok: true };
  }

  /** Writes one record; a conflict when its expectation does not hold (nothing written for it). */
  async #upsert(transaction: Kysely<MemoryDatabase>, change: Extract<MemoryIndexChange, { kind: "upsert" }>): Promise<MemoryBatchConflict | undefined> {
    const { record, expectedUpdatedAt } = change;
    const values: Record<string, unknown> = { ...recordToMetaValues(record), ...this.#textIndex.metaExtras(record) };
    let written: { id: number | string } | undefined;
    if (typeof expectedUpdatedAt === "number") {
      const { scope, workdir_hash, slug, ...rest } = values;
      written = await transaction
        .updateTable(MEMORY_META_TABLE)
        .set(rest as never)
        .where("scope", "=", record.scope)
        .where("workdir_hash", "=", record.workdirHash)
        .where("slug", "=", record.slug)
        .where("updated_at", "=", expectedUpdatedAt)
        .returning("id")
        .executeTakeFirst();
    } else {
      const insertValues = this.#dialect === "sqlite" ? { ...values, id: sql`(select coalesce(max(id), 0) + 1 from ${sql.table(MEMORY_META_TABLE)})` } : values;
      const columns = [...UPDATABLE_COLUMNS, ...Object.keys(this.#textIndex.metaExtras(record))];
      written = await transaction
        .insertInto(MEMORY_META_TABLE)
        .values(insertValues as never)
        .onConflict((conflict) => {
          const target = conflict.columns(["scope", "workdir_hash", "slug"]);
          return expectedUpdatedAt === null
            ? target.doNothing()
            : target.doUpdateSet(Object.fromEntries(columns.map((column) => [column, sql.ref(`excluded.${column}`)])) as never);
        })
        .returning("id")
        .executeTakeFirst();
    }
    if (written === undefined) return this.#conflict(transaction, record);
    await this.#textIndex.afterUpsert(transaction, Number(written.id), record);
    return undefined;
  }

  /** Deletes one record; a conflict when its expectation does not hold. */
  async #delete(transaction: Kysely<MemoryDatabase>, change: Extract<MemoryIndexChange, { kind: "delete" }>): Promise<MemoryBatchConflict | undefined> {
    let statement = transaction
      .deleteFrom(MEMORY_META_TABLE)
      .where("scope", "=", change.key.scope)
      .where("workdir_hash", "=", change.key.workdirHash)
      .where("slug", "=", change.key.slug);
    if (change.expectedUpdatedAt !== undefined) statement = statement.where("updated_at", "=", change.expectedUpdatedAt);
    const deleted = await statement.returning("id").executeTakeFirst();
    if (deleted === undefined) return change.expectedUpdatedAt === undefined ? undefined : this.#conflict(transaction, change.key);
    await this.#textIndex.afterDelete(transaction, Number(deleted.id));
    return undefined;
  }

  async #conflict(transaction: Kysely<MemoryDatabase>, key: MemoryKey): Promise<MemoryBatchConflict> {
    const row = await transaction
      .selectFrom(MEMORY_META_TABLE)
      .select("updated_at")
      .where("scope", "=", key.scope)
      .where("workdir_hash", "=", key.workdirHash)
      .where("slug", "=", key.slug)
      .executeTakeFirst();
    return {
      key: { scope: key.scope, workdirHash: key.workdirHash, slug: key.slug },
      actualUpdatedAt: row === undefined ? null : Number(row.updated_at),
    };
  }

  /** {@inheritDoc MemoryIndexStore.fileStates} */
  async fileStates(): Promise<readonly MemoryFileState[]> {
    const rows = await this.#db
      .selectFrom(MEMORY_META_TABLE)
      .select(["scope", "workdir_hash", "slug", "body_hash", "file_mtime_ms", "file_size"])
      .orderBy("scope")
      .orderBy("workdir_hash")
      .orderBy("slug")
      .execute();
    return rows.map((row) => ({
      scope: row.scope as MemoryFileState["scope"],
      workdirHash: row.workdir_hash,
      slug: row.slug,
      bodyHash: row.body_hash,
      fileMtimeMs: Number(row.file_mtime_ms),
      fileSize: Number(row.file_size),
    }));
  }

  /** {@inheritDoc MemoryIndexStore.audit} */
  async audit(query: { readonly slug?: string; readonly limit?: number } = {}): Promise<readonly MemoryAuditEntry[]> {
    let statement = this.#db
      .selectFrom(MEMORY_AUDIT_TABLE)
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(Math.max(0, query.limit ?? DEFAULT_AUDIT_LIMIT));
    if (query.slug !== undefined) statement = statement.where("slug", "=", query.slug);
    return (await statement.execute()).map(auditRowToEntry);
  }

  /** {@inheritDoc MemoryIndexStore.saveOrganizeRun} */
  async saveOrganizeRun(run: MemoryOrganizeRun): Promise<void> {
    const values = {
      id: run.id,
      started_at: run.startedAt,
      finished_at: run.finishedAt ?? null,
      status: run.status,
      note: run.note ?? null,
      applied: run.applied,
      rejected: run.rejected,
      conversation_id: run.conversationId ?? null,
    };
    const { id, ...rest } = values;
    await this.#db
      .insertInto(MEMORY_ORGANIZE_RUNS_TABLE)
      .values(values)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(rest))
      .execute();
  }

  /** {@inheritDoc MemoryIndexStore.organizeRuns} */
  async organizeRuns(limit = DEFAULT_RUN_LIMIT): Promise<readonly MemoryOrganizeRun[]> {
    const rows = await this.#db
      .selectFrom(MEMORY_ORGANIZE_RUNS_TABLE)
      .selectAll()
      .orderBy("started_at", "desc")
      .orderBy("id", "desc")
      .limit(Math.max(0, limit))
      .execute();
    return rows.map(organizeRunRowToRun);
  }

  /** {@inheritDoc MemoryVectorIndex.putVectors} */
  async putVectors(rows: readonly MemoryVectorRow[]): Promise<{ readonly stored: number }> {
    if (rows.length === 0) return putMemoryVectors(this.#db, this.#dialect, rows); // validates, writes nothing
    return this.#db.transaction().execute((transaction) => putMemoryVectors(transaction, this.#dialect, rows));
  }

  /** {@inheritDoc MemoryVectorIndex.vectorBacklog} */
  async vectorBacklog(query: MemoryVectorBacklogQuery): Promise<readonly MemoryRecord[]> {
    return memoryVectorBacklog(this.#db, query);
  }

  /** {@inheritDoc MemoryVectorIndex.searchVectors} */
  async searchVectors(query: MemoryVectorQuery): Promise<MemoryVectorHits> {
    return this.#pgvector ? searchPgvector(this.#db, query) : searchMemoryVectors(this.#db, this.#dialect, query, this.#vectorCache);
  }

  /** {@inheritDoc MemoryVectorIndex.pruneVectors} */
  async pruneVectors(query: { readonly keepModelId: string }): Promise<number> {
    return this.#db.transaction().execute((transaction) => pruneMemoryVectors(transaction, query.keepModelId));
  }

  /** `pgvector` on a PostgreSQL database with the extension installed at open, else `scan` (see docs/memory-vectors.md). */
  async vectorIndexKind(): Promise<MemoryVectorIndexKind> {
    return this.#pgvector ? "pgvector" : "scan";
  }

  /** Whether the database had the pgvector extension (`vector`) installed when the store opened, so searches use it; always false on SQLite. */
  get pgvectorInstalled(): boolean {
    return this.#pgvector;
  }

  /** Drops the decoded vectors it kept; releases nothing else: the storage belongs to whoever opened it. */
  async close(): Promise<void> {
    this.#vectorCache.clear();
  }
}
