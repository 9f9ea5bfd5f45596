/**
 * The call ledger of the DBOS tool host: a minimal `CallLedger` on a
 * PostgreSQL `Storage`, following core's contract (compare-and-set on
 * attempts, identity never overwritten). Stand-in until `@agent-tools/durable`
 * ships `KyselyCallLedger`; then this file opens that instead.
 */
import type { CallLedger, CallLedgerCall, CallLedgerClaim, CallLedgerEntry, CallLedgerKey } from "@agent-tools/core/durable";
import type { ToolResult } from "@agent-tools/core";
import { type Storage, openPostgresStorage } from "@agent-tools/storage";

const TABLE = "dbos_host_call_ledger";

interface Row {
  run_id: string;
  call_id: string;
  tool_name: string;
  arguments_hash: string;
  effects: string;
  state: string;
  attempts: number;
  approved: boolean;
  result: string | null;
  created_at: string | number;
  updated_at: string | number;
}

function toEntry(row: Row): CallLedgerEntry {
  return {
    runId: row.run_id,
    callId: row.call_id,
    toolName: row.tool_name,
    argumentsHash: row.arguments_hash,
    effects: row.effects as CallLedgerEntry["effects"],
    state: row.state as CallLedgerEntry["state"],
    attempts: Number(row.attempts),
    approved: Boolean(row.approved),
    ...(row.result === null ? {} : { result: JSON.parse(row.result) as ToolResult }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function sameIdentity(entry: CallLedgerEntry, call: CallLedgerCall): boolean {
  return entry.toolName === call.toolName && entry.argumentsHash === call.argumentsHash && entry.effects === call.effects;
}

class StorageCallLedger implements CallLedger {
  constructor(private readonly storage: Storage) {}

  async get(key: CallLedgerKey): Promise<CallLedgerEntry | undefined> {
    const row = (await this.storage.db.selectFrom(TABLE).selectAll().where("run_id", "=", key.runId).where("call_id", "=", key.callId).executeTakeFirst()) as
      | Row
      | undefined;
    return row === undefined ? undefined : toEntry(row);
  }

  async approve(call: CallLedgerCall): Promise<CallLedgerEntry> {
    const now = Date.now();
    await this.storage.db
      .insertInto(TABLE)
      .values({ ...this.identity(call), state: "approved", attempts: 0, approved: true, result: null, created_at: now, updated_at: now })
      .onConflict((conflict) => conflict.columns(["run_id", "call_id"]).doNothing())
      .execute();
    const stored = (await this.get(call)) as CallLedgerEntry;
    if (!stored.approved && sameIdentity(stored, call)) {
      await this.storage.db
        .updateTable(TABLE)
        .set({ approved: true, updated_at: now })
        .where("run_id", "=", call.runId)
        .where("call_id", "=", call.callId)
        .execute();
    }
    return (await this.get(call)) as CallLedgerEntry;
  }

  async start(call: CallLedgerCall, expectedAttempts: number): Promise<CallLedgerClaim> {
    const now = Date.now();
    let written = 0n;
    if (expectedAttempts === 0) {
      const inserted = await this.storage.db
        .insertInto(TABLE)
        .values({ ...this.identity(call), state: "started", attempts: 1, approved: false, result: null, created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.columns(["run_id", "call_id"]).doNothing())
        .executeTakeFirst();
      written = inserted.numInsertedOrUpdatedRows ?? 0n;
    }
    if (written === 0n) {
      const fromState = expectedAttempts === 0 ? "approved" : "started";
      const updated = await this.storage.db
        .updateTable(TABLE)
        .set({ state: "started", attempts: expectedAttempts + 1, updated_at: now })
        .where("run_id", "=", call.runId)
        .where("call_id", "=", call.callId)
        .where("tool_name", "=", call.toolName)
        .where("arguments_hash", "=", call.argumentsHash)
        .where("effects", "=", call.effects)
        .where("state", "=", fromState)
        .where("attempts", "=", expectedAttempts)
        .executeTakeFirst();
      written = updated.numUpdatedRows;
    }
    return { claimed: written > 0n, entry: (await this.get(call)) as CallLedgerEntry };
  }

  async finish(key: CallLedgerKey, attempt: number, outcome: { readonly state: "completed" | "failed"; readonly result: ToolResult }): Promise<boolean> {
    const updated = await this.storage.db
      .updateTable(TABLE)
      .set({ state: outcome.state, result: JSON.stringify(outcome.result), updated_at: Date.now() })
      .where("run_id", "=", key.runId)
      .where("call_id", "=", key.callId)
      .where("state", "=", "started")
      .where("attempts", "=", attempt)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  async list(runId: string, options?: { readonly limit?: number }): Promise<CallLedgerEntry[]> {
    const rows = (await this.storage.db
      .selectFrom(TABLE)
      .selectAll()
      .where("run_id", "=", runId)
      .orderBy("created_at")
      .orderBy("call_id")
      .limit(options?.limit ?? 1000)
      .execute()) as Row[];
    return rows.map(toEntry);
  }

  async deleteRun(runId: string): Promise<number> {
    const deleted = await this.storage.db.deleteFrom(TABLE).where("run_id", "=", runId).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  private identity(call: CallLedgerCall) {
    return { run_id: call.runId, call_id: call.callId, tool_name: call.toolName, arguments_hash: call.argumentsHash, effects: call.effects };
  }
}

/** An open ledger and what to close. */
export interface HostLedger {
  readonly ledger: CallLedger;
  close(): Promise<void>;
}

/** Opens the host's call ledger on the PostgreSQL database at `connectionString` (creating its table). */
export async function openHostLedger(connectionString: string): Promise<HostLedger> {
  const storage = await openPostgresStorage({ connectionString, maxConnections: 2 });
  await storage.migrate("dbos-host-ledger", [
    {
      name: "0001-create-ledger",
      async up(db) {
        await db.schema
          .createTable(TABLE)
          .addColumn("run_id", "text", (column) => column.notNull())
          .addColumn("call_id", "text", (column) => column.notNull())
          .addColumn("tool_name", "text", (column) => column.notNull())
          .addColumn("arguments_hash", "text", (column) => column.notNull())
          .addColumn("effects", "text", (column) => column.notNull())
          .addColumn("state", "text", (column) => column.notNull())
          .addColumn("attempts", "integer", (column) => column.notNull())
          .addColumn("approved", "boolean", (column) => column.notNull())
          .addColumn("result", "text")
          .addColumn("created_at", "bigint", (column) => column.notNull())
          .addColumn("updated_at", "bigint", (column) => column.notNull())
          .addPrimaryKeyConstraint("dbos_host_call_ledger_key", ["run_id", "call_id"])
          .execute();
      },
    },
  ]);
  return { ledger: new StorageCallLedger(storage), close: () => storage.close() };
}
