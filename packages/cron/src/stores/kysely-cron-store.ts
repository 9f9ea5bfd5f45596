import { ToolError } from "@agent-tools/core";
import type { Storage, StorageDialect } from "@agent-tools/storage";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { CRON_LIMITS, type CronRunRecord, type CronTask } from "../domain/cron-types.js";
import { CRON_EXPIRED_RUN_OUTPUT, capCronOutput, newCronId } from "../ports/cron-ids.js";
import { applyCronTaskPatch } from "../ports/cron-task-patch.js";
import type { CronClaimRequest, CronLeaseRequest, CronRunResult, CronStore, CronTaskPatch, NewCronTask } from "../ports/cron-store.js";
import { CRON_STORAGE_MIGRATIONS, CRON_STORAGE_NAMESPACE } from "./cron-migrations.js";
import { CRON_RUNS_TABLE, CRON_TASKS_TABLE, type CronDatabase, type CronRunRow, rowToRun, rowToTask, taskToRow } from "./cron-rows.js";

/** How often `updateTask` without `expectedVersion` retries when another writer changed the task between its read and write. */
const UPDATE_ATTEMPTS = 20;

const count = (value: number): number => Math.max(0, Math.floor(value));

/**
 * A {@link CronStore} on a core `Storage`: the embedded SQLite file (one
 * scheduler per database, see `acquireSqliteSchedulerLock`) or PostgreSQL
 * (any number of schedulers), same code.
 *
 * Exactly once: `claimOccurrence` inserts the run with `on conflict do
 * nothing` against the UNIQUE (task_id, scheduled_at) constraint, so of the
 * racers exactly one gets a row back. On PostgreSQL it first locks the task
 * row `for update`, so the check "enabled and not exhausted", the insert and
 * the decrement of `remaining_executions` agree; on SQLite the transaction's
 * first statement is a write, which takes the database's write lock at
 * once. Queue and takeover claims use `for update skip locked` on
 * PostgreSQL (one statement each on SQLite). The store does not own the
 * storage: close the storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const store = await KyselyCronStore.open(storage);
 * const run = await store.claimOccurrence({ taskId, scheduledAt, owner: "host-1", now: Date.now(), leaseMs: 60_000 });
 */
export class KyselyCronStore implements CronStore {
  readonly #db: Kysely<CronDatabase>;
  readonly #dialect: StorageDialect;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<CronDatabase>;
    this.#dialect = storage.dialect;
  }

  /** Applies the package's migrations (namespace `cron`), then returns the store. */
  static async open(storage: Storage): Promise<KyselyCronStore> {
    await storage.migrate(CRON_STORAGE_NAMESPACE, CRON_STORAGE_MIGRATIONS);
    return new KyselyCronStore(storage);
  }

  /** A text column compared in byte order (PostgreSQL's default collation may be a locale's). */
  #byteOrder(column: string, direction: "asc" | "desc" = "asc"): RawBuilder<unknown> {
    const ref = this.#dialect === "postgres" ? sql`${sql.ref(column)} collate "C"` : sql`${sql.ref(column)}`;
    return direction === "desc" ? sql`${ref} desc` : ref;
  }

  /** {@inheritDoc CronStore.createTask} An `id` already taken is refused with `ToolError("conflict")`. */
  async createTask(task: NewCronTask, now: number): Promise<CronTask> {
    const id = task.id ?? newCronId("cron");
    const stored = rowToTask(taskToRow({ ...task, id, createdAt: now, updatedAt: now, version: 1 }));
    const inserted = await this.#db
      .insertInto(CRON_TASKS_TABLE)
      .values(taskToRow(stored))
      .onConflict((conflict) => conflict.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted === undefined) {
      throw new ToolError("conflict", `A cron task with id ${id} already exists. Create it without an id, or update the existing task.`, {
        details: { taskId: id },
      });
    }
    return stored;
  }

  /** {@inheritDoc CronStore.getTask} */
  async getTask(id: string): Promise<CronTask | undefined> {
    const row = await this.#db.selectFrom(CRON_TASKS_TABLE).selectAll().where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : rowToTask(row);
  }

  /** {@inheritDoc CronStore.listTasks} Oldest first (creation time, then id). */
  async listTasks(options?: { readonly enabledOnly?: boolean }): Promise<readonly CronTask[]> {
    const rows = await this.#db
      .selectFrom(CRON_TASKS_TABLE)
      .selectAll()
      .$if(options?.enabledOnly === true, (query) => query.where("enabled", "=", 1))
      .orderBy("created_at", "asc")
      .orderBy(this.#byteOrder("id"))
      .execute();
    return rows.map(rowToTask);
  }

  /**
   * {@inheritDoc CronStore.updateTask} Reads, merges and writes back only
   * while the version is still the one read (retrying, without
   * `expectedVersion`, when another writer came between).
   */
  async updateTask(id: string, patch: CronTaskPatch, now: number, options?: { readonly expectedVersion?: number }): Promise<CronTask | undefined> {
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt += 1) {
      const current = await this.getTask(id);
      if (current === undefined) return undefined;
      if (options?.expectedVersion !== undefined && current.version !== options.expectedVersion) return undefined;
      const merged: { -readonly [K in keyof CronTask]: CronTask[K] } = { ...current, updatedAt: now, version: current.version + 1 };
      applyCronTaskPatch(merged, patch);
      const { id: _id, created_at: _created, ...changes } = taskToRow(merged);
      const result = await this.#db.updateTable(CRON_TASKS_TABLE).set(changes).where("id", "=", id).where("version", "=", current.version).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return rowToTask(taskToRow(merged));
      if (options?.expectedVersion !== undefined) return undefined;
    }
    throw new ToolError("conflict", `The cron task ${id} kept changing while it was being updated. Try the update again.`, { details: { taskId: id } });
  }

  /** {@inheritDoc CronStore.deleteTask} */
  async deleteTask(id: string): Promise<boolean> {
    return this.#db.transaction().execute(async (transaction) => {
      await transaction.deleteFrom(CRON_RUNS_TABLE).where("task_id", "=", id).execute();
      const result = await transaction.deleteFrom(CRON_TASKS_TABLE).where("id", "=", id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** {@inheritDoc CronStore.tasksFingerprint} */
  async tasksFingerprint(): Promise<{ readonly count: number; readonly maxUpdatedAt: number; readonly versionSum: number }> {
    const row = await this.#db
      .selectFrom(CRON_TASKS_TABLE)
      .select([
        sql<number | string>`count(*)`.as("count"),
        sql<number | string>`coalesce(max(updated_at), 0)`.as("max_updated_at"),
        sql<number | string>`coalesce(sum(version), 0)`.as("version_sum"),
      ])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), maxUpdatedAt: Number(row.max_updated_at), versionSum: Number(row.version_sum) };
  }

  /**
   * {@inheritDoc CronStore.claimOccurrence} A decrement is a change of the
   * task: its version and `updatedAt` move too.
   */
  async claimOccurrence(input: CronClaimRequest): Promise<CronRunRecord | undefined> {
    const queued = input.queue === true;
    return this.#db.transaction().execute(async (transaction) => {
      // Lock the task first, held until commit, so the check, the insert and the decrement agree: on
      // PostgreSQL its row lock (claims of one task run one after the other); on SQLite a write as the
      // first statement takes the database's write lock at once (a read first could fail to upgrade).
      const task =
        this.#dialect === "postgres"
          ? await transaction
              .selectFrom(CRON_TASKS_TABLE)
              .select(["enabled", "remaining_executions"])
              .where("id", "=", input.taskId)
              .forUpdate()
              .executeTakeFirst()
          : await transaction
              .updateTable(CRON_TASKS_TABLE)
              .set((update) => ({ id: update.ref("id") }))
              .where("id", "=", input.taskId)
              .returning(["enabled", "remaining_executions"])
              .executeTakeFirst();
      if (task === undefined || Number(task.enabled) !== 1) return undefined;
      const remaining = task.remaining_executions === null ? null : Number(task.remaining_executions);
      if (remaining !== null && remaining <= 0) return undefined;
      const run: CronRunRow = {
        id: newCronId("run"),
        task_id: input.taskId,
        scheduled_at: input.scheduledAt,
        state: queued ? "pending" : "leased",
        success: 0,
        started_at: input.now,
        finished_at: null,
        duration_ms: 0,
        has_exit_code: 0,
        exit_code: null,
        output: "",
        lease_owner: queued ? null : input.owner,
        lease_expires_at: queued ? null : input.now + input.leaseMs,
      };
      // The UNIQUE (task_id, scheduled_at) constraint decides: a second claim of the occurrence inserts nothing.
      const inserted = await transaction
        .insertInto(CRON_RUNS_TABLE)
        .values(run)
        .onConflict((conflict) => conflict.columns(["task_id", "scheduled_at"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (inserted === undefined) return undefined;
      if (remaining !== null) {
        await transaction
          .updateTable(CRON_TASKS_TABLE)
          .set((update) => ({ remaining_executions: update("remaining_executions", "-", 1), version: update("version", "+", 1), updated_at: input.now }))
          .where("id", "=", input.taskId)
          .execute();
      }
      return rowToRun(run);
    });
  }

  /** {@inheritDoc CronStore.claimQueuedRun} Oldest by queue time, then occurrence, then id. */
  async claimQueuedRun(input: CronLeaseRequest): Promise<CronRunRecord | undefined> {
    const oldest = this.#db
      .selectFrom(CRON_RUNS_TABLE)
      .select("id")
      .where("state", "=", "pending")
      .orderBy("started_at", "asc")
      .orderBy("scheduled_at", "asc")
      .orderBy(this.#byteOrder("id"))
      .limit(1)
      .$if(this.#dialect === "postgres", (query) => query.forUpdate().skipLocked());
    const row = await this.#db
      .updateTable(CRON_RUNS_TABLE)
      .set({ state: "leased", lease_owner: input.owner, lease_expires_at: input.now + input.leaseMs })
      .where("id", "=", oldest)
      .where("state", "=", "pending")
      .returningAll()
      .executeTakeFirst();
    return row === undefined ? undefined : rowToRun(row);
  }

  /** {@inheritDoc CronStore.renewLease} */
  async renewLease(runId: string, owner: string, leaseExpiresAt: number): Promise<boolean> {
    const result = await this.#db
      .updateTable(CRON_RUNS_TABLE)
      .set({ lease_expires_at: leaseExpiresAt })
      .where("id", "=", runId)
      .where("state", "=", "leased")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** {@inheritDoc CronStore.takeOverExpiredLeases} The longest-lapsed first; the answer is in id order. */
  async takeOverExpiredLeases(input: CronLeaseRequest & { readonly limit: number }): Promise<readonly CronRunRecord[]> {
    const limit = count(input.limit);
    if (limit === 0) return [];
    // A materialised CTE picks the rows once: as a plain `in (subquery limit n)` PostgreSQL may run the
    // subquery more than once and so take more than `limit` rows.
    const rows = await this.#db
      .with(
        (cte) => cte("lapsed").materialized(),
        (db) =>
          db
            .selectFrom(CRON_RUNS_TABLE)
            .select("id")
            .where("state", "=", "leased")
            .where("lease_expires_at", "<", input.now)
            .orderBy("lease_expires_at", "asc")
            .orderBy(this.#byteOrder("id"))
            .limit(limit)
            .$if(this.#dialect === "postgres", (query) => query.forUpdate().skipLocked()),
      )
      .updateTable(CRON_RUNS_TABLE)
      .set({ lease_owner: input.owner, lease_expires_at: input.now + input.leaseMs })
      .where("id", "in", (eb) => eb.selectFrom("lapsed").select("lapsed.id"))
      .where("state", "=", "leased")
      .where("lease_expires_at", "<", input.now)
      .returningAll()
      .execute();
    return rows.map(rowToRun).sort((left, right) => (left.id < right.id ? -1 : left.id > right.id ? 1 : 0));
  }

  /** {@inheritDoc CronStore.finishRun} The lease fields are cleared; `durationMs` is `finishedAt - startedAt` (at least 0). */
  async finishRun(runId: string, owner: string, result: CronRunResult): Promise<boolean> {
    const updated = await this.#db
      .updateTable(CRON_RUNS_TABLE)
      .set({
        state: "done",
        success: result.success ? 1 : 0,
        finished_at: result.finishedAt,
        duration_ms: sql`case when ${result.finishedAt} > started_at then ${result.finishedAt} - started_at else 0 end`,
        has_exit_code: result.exitCode === undefined ? 0 : 1,
        exit_code: result.exitCode ?? null,
        output: capCronOutput(result.output, CRON_LIMITS.outputMaxChars),
        lease_owner: null,
        lease_expires_at: null,
      })
      .where("id", "=", runId)
      .where("state", "=", "leased")
      .where("lease_owner", "=", owner)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** {@inheritDoc CronStore.expireQueuedRuns} Expired runs are failed, finished at `now`, with an explanatory output. */
  async expireQueuedRuns(olderThan: number, now: number): Promise<readonly CronRunRecord[]> {
    const rows = await this.#db
      .updateTable(CRON_RUNS_TABLE)
      .set({
        state: "expired",
        success: 0,
        finished_at: now,
        duration_ms: sql`case when ${now} > started_at then ${now} - started_at else 0 end`,
        output: CRON_EXPIRED_RUN_OUTPUT,
      })
      .where("state", "=", "pending")
      .where("started_at", "<", olderThan)
      .returningAll()
      .execute();
    return rows.map(rowToRun).sort((left, right) => left.startedAt - right.startedAt || (left.id < right.id ? -1 : 1));
  }

  /** {@inheritDoc CronStore.getRun} */
  async getRun(runId: string): Promise<CronRunRecord | undefined> {
    const row = await this.#db.selectFrom(CRON_RUNS_TABLE).selectAll().where("id", "=", runId).executeTakeFirst();
    return row === undefined ? undefined : rowToRun(row);
  }

  /** {@inheritDoc CronStore.listRuns} Without `limit`, all of them. */
  async listRuns(taskId: string, options?: { readonly limit?: number }): Promise<readonly CronRunRecord[]> {
    const rows = await this.#db
      .selectFrom(CRON_RUNS_TABLE)
      .selectAll()
      .where("task_id", "=", taskId)
      .orderBy("scheduled_at", "desc")
      .orderBy(this.#byteOrder("id", "desc"))
      .$if(options?.limit !== undefined, (query) => query.limit(count(options?.limit ?? 0)))
      .execute();
    return rows.map(rowToRun);
  }

  /** {@inheritDoc CronStore.lastScheduledAt} */
  async lastScheduledAt(taskId: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom(CRON_RUNS_TABLE)
      .select(sql<number | string | null>`max(scheduled_at)`.as("latest"))
      .where("task_id", "=", taskId)
      .executeTakeFirst();
    return row?.latest === null || row?.latest === undefined ? undefined : Number(row.latest);
  }

  /**
   * {@inheritDoc CronStore.pruneRuns} Finished means `done` or `expired`;
   * "older" compares `startedAt`. Pending and leased runs are never dropped.
   */
  async pruneRuns(input: { readonly keepPerTask: number; readonly olderThan: number }): Promise<number> {
    const keep = count(input.keepPerTask);
    const ranked = sql`(select id from (
        select id, row_number() over (partition by task_id order by scheduled_at desc, ${this.#byteOrder("id", "desc")}) as position
        from ${sql.table(CRON_RUNS_TABLE)} where state in ('done', 'expired')
      ) ranked where position > ${keep})`;
    const result = await this.#db
      .deleteFrom(CRON_RUNS_TABLE)
      .where("state", "in", ["done", "expired"])
      .where((where) => where.or([where("started_at", "<", input.olderThan), sql<boolean>`id in ${ranked}`]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Opens nothing of its own, so releases nothing: the storage stays open for its owner to close. */
  async close(): Promise<void> {}
}
