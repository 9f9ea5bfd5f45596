import { SdkError } from "@agent-tools/core";
import type { CallLedger, CallLedgerCall, CallLedgerClaim, CallLedgerEntry, CallLedgerKey, ToolEffects } from "@agent-tools/core/durable";
import type { Storage, StorageDialect } from "@agent-tools/storage";
import { type Kysely, type Selectable, sql } from "kysely";
import {
  type CallLedgerOutcome,
  checkAttempts,
  checkLedgerCall,
  checkLedgerKey,
  checkListLimit,
  checkOutcome,
  noEntryToRestart,
  resultFromJson,
} from "../domain/call-ledger-input.js";
import { CALL_LEDGER_MIGRATIONS, CALL_LEDGER_TABLE, type CallLedgerDatabase, type CallLedgerRow, DURABLE_STORAGE_NAMESPACE } from "./call-ledger-schema.js";

const T = CALL_LEDGER_TABLE;

/**
 * A {@link CallLedger} on a `Storage` (`@agent-tools/storage`): the embedded
 * SQLite file or PostgreSQL, same code. Every write is one statement whose
 * WHERE clause is the compare-and-set of the contract (state, attempts and
 * identity of the stored row), so any number of processes may share the
 * database, and a crash at any instant leaves a row in one valid state.
 * A write is committed when its promise resolves: on SQLite (WAL,
 * `synchronous=NORMAL`) it survives the process being killed, on PostgreSQL
 * the server's `synchronous_commit` decides. The ledger does not own the
 * storage: close the storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const ledger = await KyselyCallLedger.open(storage);
 * const registry = createToolRegistry({ workdir, ledger });
 */
export class KyselyCallLedger implements CallLedger {
  readonly #db: Kysely<CallLedgerDatabase>;
  readonly #dialect: StorageDialect;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<CallLedgerDatabase>;
    this.#dialect = storage.dialect;
  }

  /** Applies the ledger's migrations (namespace `durable`), then returns the ledger. */
  static async open(storage: Storage): Promise<KyselyCallLedger> {
    await storage.migrate(DURABLE_STORAGE_NAMESPACE, CALL_LEDGER_MIGRATIONS);
    return new KyselyCallLedger(storage);
  }

  /** {@inheritDoc CallLedger.get} */
  async get(key: CallLedgerKey): Promise<CallLedgerEntry | undefined> {
    const { runId, callId } = checkLedgerKey(key);
    const row = await this.#db.selectFrom(T).selectAll().where("run_id", "=", runId).where("call_id", "=", callId).executeTakeFirst();
    return row === undefined ? undefined : rowToEntry(row);
  }

  /** {@inheritDoc CallLedger.approve} */
  async approve(call: CallLedgerCall): Promise<CallLedgerEntry> {
    const checked = checkLedgerCall(call);
    for (let round = 0; ; round += 1) {
      const now = Date.now();
      // One statement: insert `approved`, or set the flag on the key's row of the same identity (any state); another identity writes nothing.
      const row = await this.#db
        .insertInto(T)
        .values(newRow(checked, "approved", now))
        .onConflict((conflict) =>
          conflict
            .columns(["run_id", "call_id"])
            .doUpdateSet({ approved: 1, updated_at: now })
            .where((where) =>
              where.and([
                where(`${T}.tool_name`, "=", checked.toolName),
                where(`${T}.arguments_hash`, "=", checked.argumentsHash),
                where(`${T}.effects`, "=", checked.effects),
              ]),
            ),
        )
        .returningAll()
        .executeTakeFirst();
      if (row !== undefined) return rowToEntry(row);
      const stored = await this.get(checked);
      if (stored !== undefined) return stored;
      retryOrThrow(round, "approve", checked);
    }
  }

  /** {@inheritDoc CallLedger.start} */
  async start(call: CallLedgerCall, expectedAttempts: number): Promise<CallLedgerClaim> {
    const checked = checkLedgerCall(call);
    checkAttempts("expectedAttempts", expectedAttempts);
    for (let round = 0; ; round += 1) {
      const row = await this.#claim(checked, expectedAttempts, Date.now());
      if (row !== undefined) return { claimed: true, entry: rowToEntry(row) };
      const stored = await this.get(checked);
      if (stored !== undefined) return { claimed: false, entry: stored };
      // Nothing stored after a refused claim: no row for N > 0, or (N = 0) the run was deleted in between.
      if (expectedAttempts > 0) throw noEntryToRestart(checked, expectedAttempts);
      retryOrThrow(round, "start", checked);
    }
  }

  /** The compare-and-set write of `start`, one statement; the row written, or undefined when it wrote nothing. */
  async #claim(call: CallLedgerCall, expectedAttempts: number, now: number): Promise<Selectable<CallLedgerRow> | undefined> {
    if (expectedAttempts === 0) {
      // Insert `started`, or start an `approved` row (attempts 0) of the same identity; anything else is left alone.
      return this.#db
        .insertInto(T)
        .values(newRow(call, "started", now))
        .onConflict((conflict) =>
          conflict
            .columns(["run_id", "call_id"])
            .doUpdateSet({ state: "started", attempts: 1, updated_at: now })
            .where((where) =>
              where.and([
                where(`${T}.state`, "=", "approved"),
                where(`${T}.attempts`, "=", 0),
                where(`${T}.tool_name`, "=", call.toolName),
                where(`${T}.arguments_hash`, "=", call.argumentsHash),
                where(`${T}.effects`, "=", call.effects),
              ]),
            ),
        )
        .returningAll()
        .executeTakeFirst();
    }
    return this.#db
      .updateTable(T)
      .set({ attempts: expectedAttempts + 1, updated_at: now })
      .where("run_id", "=", call.runId)
      .where("call_id", "=", call.callId)
      .where("state", "=", "started")
      .where("attempts", "=", expectedAttempts)
      .where("tool_name", "=", call.toolName)
      .where("arguments_hash", "=", call.argumentsHash)
      .where("effects", "=", call.effects)
      .returningAll()
      .executeTakeFirst();
  }

  /** {@inheritDoc CallLedger.finish} */
  async finish(key: CallLedgerKey, attempt: number, outcome: CallLedgerOutcome): Promise<boolean> {
    const { runId, callId } = checkLedgerKey(key);
    checkAttempts("attempt", attempt);
    const { state, resultJson } = checkOutcome(outcome);
    const result = await this.#db
      .updateTable(T)
      .set({ state, result_json: resultJson, updated_at: Date.now() })
      .where("run_id", "=", runId)
      .where("call_id", "=", callId)
      .where("state", "=", "started")
      .where("attempts", "=", attempt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** {@inheritDoc CallLedger.list} */
  async list(runId: string, options?: { readonly limit?: number }): Promise<CallLedgerEntry[]> {
    const { runId: checkedRunId } = checkLedgerKey({ runId, callId: "-" });
    const limit = checkListLimit(options?.limit);
    // Code point order of call ids on both dialects (PostgreSQL's database collation may be a locale's).
    const callIdOrder = this.#dialect === "postgres" ? sql`call_id collate "C"` : sql`call_id`;
    const rows = await this.#db.selectFrom(T).selectAll().where("run_id", "=", checkedRunId).orderBy("created_at").orderBy(callIdOrder).limit(limit).execute();
    return rows.map(rowToEntry);
  }

  /** {@inheritDoc CallLedger.deleteRun} */
  async deleteRun(runId: string): Promise<number> {
    const { runId: checkedRunId } = checkLedgerKey({ runId, callId: "-" });
    const result = await this.#db.deleteFrom(T).where("run_id", "=", checkedRunId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * After a refused write the row was gone: a `deleteRun` ran in between. The
 * write is tried again (the key is free now); twice in a row means the run
 * is being deleted over and over, which is the host's bug.
 */
function retryOrThrow(round: number, method: string, call: CallLedgerCall): void {
  if (round >= 2)
    throw new SdkError(
      "storage",
      `CallLedger.${method}: the entry of ${call.runId}/${call.callId} vanished between writes three times (a deleteRun racing the run).`,
      {
        runId: call.runId,
        callId: call.callId,
      },
    );
}

function newRow(call: CallLedgerCall, state: "approved" | "started", now: number): CallLedgerRow {
  return {
    run_id: call.runId,
    call_id: call.callId,
    tool_name: call.toolName,
    arguments_hash: call.argumentsHash,
    effects: call.effects,
    state,
    attempts: state === "started" ? 1 : 0,
    approved: state === "approved" ? 1 : 0,
    result_json: null,
    created_at: now,
    updated_at: now,
  };
}

function rowToEntry(row: Selectable<CallLedgerRow>): CallLedgerEntry {
  const entry: CallLedgerEntry = {
    runId: row.run_id,
    callId: row.call_id,
    toolName: row.tool_name,
    argumentsHash: row.arguments_hash,
    effects: row.effects as ToolEffects,
    state: row.state as CallLedgerEntry["state"],
    attempts: Number(row.attempts),
    approved: Number(row.approved) === 1,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  return row.result_json === null ? entry : { ...entry, result: resultFromJson(row.result_json) };
}
