/**
 * The schema of the checkpoint store, as `@agent-tools/storage` migrations in
 * the `checkpoints` namespace. Same table on SQLite and PostgreSQL; a file's
 * bytes are a `blob` (SQLite) or `bytea` (PostgreSQL).
 */
import type { StorageMigration } from "@agent-tools/storage";

/** The storage namespace (migration history) of the checkpoint store. */
export const CHECKPOINTS_STORAGE_NAMESPACE = "checkpoints";

/** The table of checkpoint entries: one row per (checkpoint, path). */
export const CHECKPOINT_ENTRIES_TABLE = "agent_tools_checkpoint_entries";

/** The schema steps of the checkpoint store, in order. */
export const CHECKPOINTS_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-checkpoint-entries",
    async up(db, dialect) {
      await db.schema
        .createTable(CHECKPOINT_ENTRIES_TABLE)
        .addColumn("checkpoint_id", "text", (column) => column.notNull())
        .addColumn("path", "text", (column) => column.notNull())
        .addColumn("tool_name", "text", (column) => column.notNull())
        .addColumn("call_id", "text", (column) => column.notNull())
        .addColumn("pre_kind", "text", (column) => column.notNull())
        .addColumn("pre_mode", "integer", (column) => column.notNull())
        .addColumn("pre_sha256", "text", (column) => column.notNull())
        .addColumn("pre_link_target", "text", (column) => column.notNull())
        .addColumn("pre_content", dialect === "postgres" ? "bytea" : "blob", (column) => column.notNull())
        .addColumn("post_kind", "text")
        .addColumn("post_mode", "integer")
        .addColumn("post_sha256", "text")
        .addColumn("post_link_target", "text")
        .addColumn("recorded_at", "bigint", (column) => column.notNull())
        .addColumn("rewound_at", "bigint")
        .addPrimaryKeyConstraint("agent_tools_checkpoint_entries_pk", ["checkpoint_id", "path"])
        .execute();
    },
  },
];
