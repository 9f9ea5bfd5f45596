/**
 * The schema of the cron store, as `@agent-tools/storage` migrations in the
 * `cron` namespace. Same tables on SQLite and PostgreSQL.
 */
import type { StorageMigration } from "@agent-tools/storage";
import { CRON_RUNS_TABLE, CRON_SCHEDULER_LOCK_TABLE, CRON_TASKS_TABLE } from "./cron-rows.js";

/** The storage namespace (migration history) of the cron store. */
export const CRON_STORAGE_NAMESPACE = "cron";

/** The schema steps of the cron store, in order. */
export const CRON_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-cron-tasks",
    async up(db) {
      await db.schema
        .createTable(CRON_TASKS_TABLE)
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("description", "text", (column) => column.notNull())
        .addColumn("cron", "text", (column) => column.notNull())
        .addColumn("enabled", "integer", (column) => column.notNull())
        .addColumn("remaining_executions", "bigint")
        .addColumn("timeout_seconds", "integer", (column) => column.notNull())
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("script", "text")
        .addColumn("requests_json", "text")
        .addColumn("prompt", "text")
        .addColumn("selected_model", "text")
        .addColumn("reasoning", "text")
        .addColumn("workdir", "text")
        .addColumn("last_error", "text")
        .addColumn("time_zone", "text")
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addColumn("version", "bigint", (column) => column.notNull())
        .execute();
    },
  },
  {
    name: "0002-create-cron-runs",
    async up(db) {
      await db.schema
        .createTable(CRON_RUNS_TABLE)
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("task_id", "text", (column) => column.notNull())
        .addColumn("scheduled_at", "bigint", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("success", "integer", (column) => column.notNull())
        .addColumn("started_at", "bigint", (column) => column.notNull())
        .addColumn("finished_at", "bigint")
        .addColumn("duration_ms", "bigint", (column) => column.notNull())
        .addColumn("has_exit_code", "integer", (column) => column.notNull())
        .addColumn("exit_code", "bigint")
        .addColumn("output", "text", (column) => column.notNull())
        .addColumn("lease_owner", "text")
        .addColumn("lease_expires_at", "bigint")
        // One run per occurrence: of the schedulers racing for it, the constraint lets exactly one insert.
        .addUniqueConstraint("agent_tools_cron_runs_occurrence", ["task_id", "scheduled_at"])
        .execute();
      await db.schema.createIndex("agent_tools_cron_runs_state_lease").on(CRON_RUNS_TABLE).columns(["state", "lease_expires_at"]).execute();
      await db.schema.createIndex("agent_tools_cron_runs_task_scheduled").on(CRON_RUNS_TABLE).columns(["task_id", "scheduled_at desc"]).execute();
      await db.schema.createIndex("agent_tools_cron_runs_state_started").on(CRON_RUNS_TABLE).columns(["state", "started_at"]).execute();
    },
  },
  {
    name: "0003-create-cron-scheduler-lock",
    async up(db) {
      await db.schema
        .createTable(CRON_SCHEDULER_LOCK_TABLE)
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("owner", "text", (column) => column.notNull())
        .addColumn("heartbeat_at", "bigint", (column) => column.notNull())
        .addColumn("acquired_at", "bigint", (column) => column.notNull())
        .execute();
    },
  },
  {
    // The roots, sandbox and network of the registry that created a task; null for older tasks, which then do not run.
    name: "0004-add-cron-task-policy",
    async up(db) {
      await db.schema.alterTable(CRON_TASKS_TABLE).addColumn("policy_json", "text").execute();
    },
  },
];
