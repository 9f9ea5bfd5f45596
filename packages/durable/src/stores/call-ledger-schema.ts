import type { StorageMigration } from "@agent-tools/storage";

/** The storage namespace (migration history) of @agent-tools/durable. */
export const DURABLE_STORAGE_NAMESPACE = "durable";

/** The table holding one row per call of a run. */
export const CALL_LEDGER_TABLE = "agent_tools_call_ledger";

/** A row of {@link CALL_LEDGER_TABLE}. `approved` is 0/1 (SQLite has no boolean); times are ms since the epoch (bigint). */
export interface CallLedgerRow {
  run_id: string;
  call_id: string;
  tool_name: string;
  arguments_hash: string;
  effects: string;
  state: string;
  attempts: number;
  approved: number;
  result_json: string | null;
  created_at: number | string | bigint;
  updated_at: number | string | bigint;
}

/** The Kysely database type of the ledger's table. */
export interface CallLedgerDatabase {
  [CALL_LEDGER_TABLE]: CallLedgerRow;
}

/** The schema steps of the call ledger, in order. */
export const CALL_LEDGER_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-call-ledger",
    async up(db) {
      await db.schema
        .createTable(CALL_LEDGER_TABLE)
        .addColumn("run_id", "text", (column) => column.notNull())
        .addColumn("call_id", "text", (column) => column.notNull())
        .addColumn("tool_name", "text", (column) => column.notNull())
        .addColumn("arguments_hash", "text", (column) => column.notNull())
        .addColumn("effects", "text", (column) => column.notNull())
        .addColumn("state", "text", (column) => column.notNull())
        .addColumn("attempts", "integer", (column) => column.notNull())
        .addColumn("approved", "integer", (column) => column.notNull())
        .addColumn("result_json", "text")
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint(`${CALL_LEDGER_TABLE}_pkey`, ["run_id", "call_id"])
        .execute();
      await db.schema.createIndex(`${CALL_LEDGER_TABLE}_run_created`).on(CALL_LEDGER_TABLE).columns(["run_id", "created_at"]).execute();
    },
  },
];
