/**
 * The schema of the subagent store, as `@agent-tools/storage` migrations in
 * the `subagents` namespace. Same tables on SQLite and PostgreSQL.
 */
import type { StorageMigration } from "@agent-tools/storage";
import { SUBAGENT_IDENTITIES_TABLE, SUBAGENT_MESSAGES_TABLE, SUBAGENT_MESSAGE_COUNTERS_TABLE, SUBAGENT_RUNS_TABLE } from "./subagent-rows.js";

/** The storage namespace (migration history) of the subagent store. */
export const SUBAGENT_STORAGE_NAMESPACE = "subagents";

/** The schema steps of the subagent store, in order. */
export const SUBAGENT_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-subagent-identities",
    async up(db) {
      await db.schema
        .createTable(SUBAGENT_IDENTITIES_TABLE)
        .addColumn("conversation_id", "text", (column) => column.notNull())
        .addColumn("id_key", "text", (column) => column.notNull())
        .addColumn("id", "text", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("role", "text", (column) => column.notNull())
        .addColumn("identity_prompt", "text", (column) => column.notNull())
        .addColumn("template_id", "text")
        .addColumn("last_mode", "text")
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("agent_tools_subagent_identities_pk", ["conversation_id", "id_key"])
        .execute();
    },
  },
  {
    name: "0002-create-subagent-runs",
    async up(db) {
      await db.schema
        .createTable(SUBAGENT_RUNS_TABLE)
        .addColumn("conversation_id", "text", (column) => column.notNull())
        .addColumn("run_id", "text", (column) => column.notNull())
        .addColumn("agent_id", "text", (column) => column.notNull())
        .addColumn("agent_key", "text", (column) => column.notNull())
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("mode", "text", (column) => column.notNull())
        .addColumn("prompt", "text", (column) => column.notNull())
        .addColumn("messages_json", "text", (column) => column.notNull())
        .addColumn("context_schema_version", "integer", (column) => column.notNull())
        .addColumn("rounds", "integer", (column) => column.notNull())
        .addColumn("tool_calls", "integer", (column) => column.notNull())
        .addColumn("summary", "text")
        .addColumn("error", "text")
        .addColumn("worktree_path", "text")
        .addColumn("started_at", "bigint", (column) => column.notNull())
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addColumn("ended_at", "bigint")
        // Per conversation, so one conversation can never read or replace another's run.
        .addPrimaryKeyConstraint("agent_tools_subagent_runs_pk", ["conversation_id", "run_id"])
        .execute();
      await db.schema
        .createIndex("agent_tools_subagent_runs_agent_started")
        .on(SUBAGENT_RUNS_TABLE)
        .columns(["conversation_id", "agent_key", "started_at"])
        .execute();
      await db.schema.createIndex("agent_tools_subagent_runs_started").on(SUBAGENT_RUNS_TABLE).columns(["conversation_id", "started_at"]).execute();
    },
  },
  {
    name: "0003-create-subagent-messages",
    async up(db) {
      await db.schema
        .createTable(SUBAGENT_MESSAGES_TABLE)
        .addColumn("conversation_id", "text", (column) => column.notNull())
        .addColumn("seq", "bigint", (column) => column.notNull())
        .addColumn("sender_id", "text", (column) => column.notNull())
        .addColumn("recipient_id", "text", (column) => column.notNull())
        .addColumn("channel", "text", (column) => column.notNull())
        .addColumn("subject", "text")
        .addColumn("body", "text", (column) => column.notNull())
        .addColumn("source_run_id", "text")
        .addColumn("source_tool_call_id", "text")
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("agent_tools_subagent_messages_pk", ["conversation_id", "seq"])
        .execute();
      await db.schema
        .createTable(SUBAGENT_MESSAGE_COUNTERS_TABLE)
        .addColumn("conversation_id", "text", (column) => column.primaryKey())
        .addColumn("last_seq", "bigint", (column) => column.notNull())
        .execute();
    },
  },
];
