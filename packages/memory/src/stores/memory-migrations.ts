/**
 * The schema of the memory index, as `@agent-tools/storage` migrations in
 * the `memory` namespace. The meta, audit and organise-run tables are the
 * same on both dialects, as is the vector table; the text indexes differ
 * (FTS5 tables on SQLite, tsvector and pg_trgm columns on PostgreSQL).
 */
import type { StorageMigration } from "@agent-tools/storage";
import { sql } from "kysely";
import { createMemoryVectorsTable } from "./kysely-memory-vectors.js";
import { createMemoryScopeVersionsTable } from "./memory-scope-versions.js";
import { MEMORY_AUDIT_TABLE, MEMORY_META_TABLE, MEMORY_ORGANIZE_RUNS_TABLE } from "./memory-rows.js";
import { createPostgresBm25Statistics, upgradePostgresBm25Statistics } from "./postgres-bm25-statistics.js";
import { createPostgresMemoryTextIndexes, disablePostgresGinPendingLists } from "./postgres-memory-text-index.js";
import { createSqliteMemoryTextIndexes } from "./sqlite-memory-text-index.js";

/** The storage namespace (migration history) of the memory index. */
export const MEMORY_STORAGE_NAMESPACE = "memory";

/** The schema steps of the memory index, in order. */
export const MEMORY_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-memory-meta",
    async up(db, dialect) {
      await db.schema
        .createTable(MEMORY_META_TABLE)
        // The text indexes refer to this id. SQLite gets it from max(id) + 1 inside the writing transaction
        // (writers are serialised there); PostgreSQL from an identity sequence.
        .addColumn("id", "bigint", (column) => (dialect === "postgres" ? column.notNull().generatedByDefaultAsIdentity() : column.notNull()))
        .addColumn("scope", "text", (column) => column.notNull())
        .addColumn("workdir_hash", "text", (column) => column.notNull())
        .addColumn("slug", "text", (column) => column.notNull())
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("description", "text", (column) => column.notNull())
        .addColumn("body", "text", (column) => column.notNull())
        .addColumn("date_local", "text")
        .addColumn("unreviewed", "integer", (column) => column.notNull())
        .addColumn("risk_flags_json", "text", (column) => column.notNull())
        .addColumn("source_json", "text", (column) => column.notNull())
        .addColumn("links_json", "text", (column) => column.notNull())
        .addColumn("append_count", "integer", (column) => column.notNull())
        .addColumn("archived", "integer", (column) => column.notNull())
        .addColumn("body_hash", "text", (column) => column.notNull())
        .addColumn("file_mtime_ms", "double precision", (column) => column.notNull())
        .addColumn("file_size", "bigint", (column) => column.notNull())
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("memory_meta_pk", ["scope", "workdir_hash", "slug"])
        .addUniqueConstraint("memory_meta_id_unique", ["id"])
        .addCheckConstraint("memory_meta_scope_hash", sql`(scope = 'global' and workdir_hash = '') or (scope = 'project' and workdir_hash <> '')`)
        .addCheckConstraint("memory_meta_daily_global", sql`type <> 'daily' or (scope = 'global' and date_local is not null)`)
        .execute();
    },
  },
  {
    name: "0002-create-memory-text-indexes",
    async up(db, dialect) {
      await (dialect === "postgres" ? createPostgresMemoryTextIndexes(db) : createSqliteMemoryTextIndexes(db));
    },
  },
  {
    name: "0003-create-memory-audit-log",
    async up(db, dialect) {
      await db.schema
        .createTable(MEMORY_AUDIT_TABLE)
        .addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (column) =>
          dialect === "postgres" ? column.primaryKey() : column.primaryKey().autoIncrement(),
        )
        .addColumn("at", "bigint", (column) => column.notNull())
        .addColumn("op", "text", (column) => column.notNull())
        .addColumn("actor", "text", (column) => column.notNull())
        .addColumn("scope", "text", (column) => column.notNull())
        .addColumn("workdir_hash", "text", (column) => column.notNull())
        .addColumn("slug", "text", (column) => column.notNull())
        .addColumn("detail_json", "text")
        .execute();
      await db.schema.createIndex("memory_audit_log_at").on(MEMORY_AUDIT_TABLE).columns(["at", "id"]).execute();
      await db.schema.createIndex("memory_audit_log_slug_at").on(MEMORY_AUDIT_TABLE).columns(["slug", "at", "id"]).execute();
    },
  },
  {
    name: "0004-create-memory-organize-runs",
    async up(db) {
      await db.schema
        .createTable(MEMORY_ORGANIZE_RUNS_TABLE)
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("started_at", "bigint", (column) => column.notNull())
        .addColumn("finished_at", "bigint")
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("note", "text")
        .addColumn("applied", "integer", (column) => column.notNull())
        .addColumn("rejected", "integer", (column) => column.notNull())
        .addColumn("conversation_id", "text")
        .execute();
      await db.schema.createIndex("memory_organize_runs_started_at").on(MEMORY_ORGANIZE_RUNS_TABLE).columns(["started_at", "id"]).execute();
    },
  },
  {
    // PostgreSQL only: token counts and totals so that its scores are BM25 on SQLite FTS5's scale.
    name: "0005-postgres-bm25-statistics",
    async up(db, dialect) {
      if (dialect === "postgres") await createPostgresBm25Statistics(db);
    },
  },
  {
    // PostgreSQL only: totals per scope, document frequencies per word, scope lexemes in the tsvector (search narrows to its scopes in the index).
    name: "0006-postgres-bm25-terms-and-scopes",
    async up(db, dialect) {
      if (dialect === "postgres") await upgradePostgresBm25Statistics(db);
    },
  },
  {
    // PostgreSQL only: the GIN indexes take each write at once (no pending list that every search scans until a vacuum merges it).
    name: "0007-postgres-gin-without-pending-list",
    async up(db, dialect) {
      if (dialect === "postgres") await disablePostgresGinPendingLists(db);
    },
  },
  {
    // One vector per entry and model (float32 BLOB / bytea), deleted with its entry.
    name: "0008-create-memory-vectors",
    async up(db, dialect) {
      await createMemoryVectorsTable(db, dialect);
    },
  },
  {
    // A change counter per scope that every write moves, so searches keep decoded vectors until it moves.
    name: "0009-create-memory-scope-versions",
    async up(db) {
      await createMemoryScopeVersionsTable(db);
    },
  },
];
