import { ToolError } from "@agent-tools/core";
import { CRON_LIMITS, type CronRunRecord, type CronTask } from "../domain/cron-types.js";
import { CRON_EXPIRED_RUN_OUTPUT, capCronOutput, compareCronRunsNewestFirst, newCronId } from "./cron-ids.js";
import { applyCronTaskPatch } from "./cron-task-patch.js";
import type { CronClaimRequest, CronLeaseRequest, CronRunResult, CronStore, CronTaskPatch, NewCronTask } from "./cron-store.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Drops keys whose value is `undefined`, so stored records compare equal across stores. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

/**
 * A {@link CronStore} in memory: for tests and hosts with one scheduler
 * that keep nothing across restarts. Records are deep-copied on the way in
 * and out, so callers never change stored state by mutating what they hold.
 *
 * @example
 * const store = new InMemoryCronStore();
 * const task = await store.createTask({ name: "ping", description: "", cron: "0 * * * * *", enabled: true, remainingExecutions: null, timeoutSeconds: 300, type: "bash", script: "echo hi", workdir: "/tmp" }, Date.now());
 * await store.claimOccurrence({ taskId: task.id, scheduledAt: 60_000, owner: "host-1", now: Date.now(), leaseMs: 30_000 }); // the run record
 * await store.claimOccurrence({ taskId: task.id, scheduledAt: 60_000, owner: "host-2", now: Date.now(), leaseMs: 30_000 }); // undefined
 */
export class InMemoryCronStore implements CronStore {
  readonly #tasks = new Map<string, CronTask>();
  readonly #runs = new Map<string, CronRunRecord>();

  /** {@inheritDoc CronStore.createTask} */
  async createTask(task: NewCronTask, now: number): Promise<CronTask> {
    const id = task.id ?? newCronId("cron");
    if (this.#tasks.has(id)) {
      throw new ToolError("conflict", `A cron task with id ${id} already exists. Create it without an id, or update the existing task.`, {
        details: { taskId: id },
      });
    }
    const stored = compact({ ...copy(task), id, createdAt: now, updatedAt: now, version: 1 }) as CronTask;
    this.#tasks.set(id, stored);
    return copy(stored);
  }

  /** {@inheritDoc CronStore.getTask} */
  async getTask(id: string): Promise<CronTask | undefined> {
    const task = this.#tasks.get(id);
    return task === undefined ? undefined : copy(task);
  }

  /** {@inheritDoc CronStore.listTasks} Oldest first (creation time, then id). */
  async listTasks(options?: { readonly enabledOnly?: boolean }): Promise<readonly CronTask[]> {
    return [...this.#tasks.values()]
      .filter((task) => options?.enabledOnly !== true || task.enabled)
      .sort((left, right) => left.createdAt - right.createdAt || (left.id < right.id ? -1 : left.id > right.id ? 1 : 0))
      .map(copy);
  }

  /** {@inheritDoc CronStore.updateTask} */
  async updateTask(id: string, patch: CronTaskPatch, now: number, options?: { readonly expectedVersion?: number }): Promise<CronTask | undefined> {
    const task = this.#tasks.get(id);
    if (task === undefined) return undefined;
    if (options?.expectedVersion !== undefined && task.version !== options.expectedVersion) return undefined;
    const next: Mutable<CronTask> = { ...task, updatedAt: now, version: task.version + 1 };
    applyCronTaskPatch(next, copy(patch));
    this.#tasks.set(id, next);
    return copy(next);
  }

  /** {@inheritDoc CronStore.deleteTask} */
  async deleteTask(id: string): Promise<boolean> {
    if (!this.#tasks.delete(id)) return false;
    for (const [runId, run] of this.#runs) if (run.taskId === id) this.#runs.delete(runId);
    return true;
  }

  /** {@inheritDoc CronStore.tasksFingerprint} */
  async tasksFingerprint(): Promise<{ readonly count: number; readonly maxUpdatedAt: number; readonly versionSum: number }> {
    let maxUpdatedAt = 0;
    let versionSum = 0;
    for (const task of this.#tasks.values()) {
      maxUpdatedAt = Math.max(maxUpdatedAt, task.updatedAt);
      versionSum += task.version;
    }
    return { count: this.#tasks.size, maxUpdatedAt, versionSum };
  }

  /**
   * {@inheritDoc CronStore.claimOccurrence} A decrement is a change of the
   * task: its version and `updatedAt` move too.
   */
  async claimOccurrence(input: CronClaimRequest): Promise<CronRunRecord | undefined> {
    const task = this.#tasks.get(input.taskId);
    if (task === undefined || !task.enabled || task.remainingExecutions === 0) return undefined;
    for (const run of this.#runs.values()) if (run.taskId === input.taskId && run.scheduledAt === input.scheduledAt) return undefined;
    if (task.remainingExecutions !== null) {
      this.#tasks.set(task.id, { ...task, remainingExecutions: task.remainingExecutions - 1, updatedAt: input.now, version: task.version + 1 });
    }
    const run: CronRunRecord =
      input.queue === true
        ? {
            id: newCronId("run"),
            taskId: input.taskId,
            scheduledAt: input.scheduledAt,
            state: "pending",
            success: false,
            startedAt: input.now,
            durationMs: 0,
            output: "",
          }
        : {
            id: newCronId("run"),
            taskId: input.taskId,
            scheduledAt: input.scheduledAt,
            state: "leased",
            success: false,
            startedAt: input.now,
            durationMs: 0,
            output: "",
            leaseOwner: input.owner,
            leaseExpiresAt: input.now + input.leaseMs,
          };
    this.#runs.set(run.id, run);
    return copy(run);
  }

  /** {@inheritDoc CronStore.claimQueuedRun} Oldest by queue time, then occurrence, then id. */
  async claimQueuedRun(input: CronLeaseRequest): Promise<CronRunRecord | undefined> {
    const oldest = [...this.#runs.values()]
      .filter((run) => run.state === "pending")
      .sort((left, right) => left.startedAt - right.startedAt || left.scheduledAt - right.scheduledAt || (left.id < right.id ? -1 : 1))[0];
    if (oldest === undefined) return undefined;
    const leased: CronRunRecord = { ...oldest, state: "leased", leaseOwner: input.owner, leaseExpiresAt: input.now + input.leaseMs };
    this.#runs.set(leased.id, leased);
    return copy(leased);
  }

  /** {@inheritDoc CronStore.renewLease} */
  async renewLease(runId: string, owner: string, leaseExpiresAt: number): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (run === undefined || run.state !== "leased" || run.leaseOwner !== owner) return false;
    this.#runs.set(runId, { ...run, leaseExpiresAt });
    return true;
  }

  /** {@inheritDoc CronStore.takeOverExpiredLeases} The longest-lapsed first. */
  async takeOverExpiredLeases(input: CronLeaseRequest & { readonly limit: number }): Promise<readonly CronRunRecord[]> {
    const lapsed = [...this.#runs.values()]
      .filter((run) => run.state === "leased" && (run.leaseExpiresAt ?? 0) < input.now)
      .sort((left, right) => (left.leaseExpiresAt ?? 0) - (right.leaseExpiresAt ?? 0) || (left.id < right.id ? -1 : 1))
      .slice(0, Math.max(0, Math.floor(input.limit)));
    return lapsed.map((run) => {
      const taken: CronRunRecord = { ...run, leaseOwner: input.owner, leaseExpiresAt: input.now + input.leaseMs };
      this.#runs.set(run.id, taken);
      return copy(taken);
    });
  }

  /** {@inheritDoc CronStore.finishRun} The lease fields are cleared; `durationMs` is `finishedAt - startedAt` (at least 0). */
  async finishRun(runId: string, owner: string, result: CronRunResult): Promise<boolean> {
    const run = this.#runs.get(runId);
    if (run === undefined || run.state !== "leased" || run.leaseOwner !== owner) return false;
    const { leaseOwner: _owner, leaseExpiresAt: _expires, ...rest } = run;
    const done: CronRunRecord = compact({
      ...rest,
      state: "done",
      success: result.success,
      finishedAt: result.finishedAt,
      durationMs: Math.max(0, result.finishedAt - run.startedAt),
      exitCode: result.exitCode,
      output: capCronOutput(result.output, CRON_LIMITS.outputMaxChars),
    });
    this.#runs.set(runId, done);
    return true;
  }

  /** {@inheritDoc CronStore.expireQueuedRuns} Expired runs are failed, finished at `now`, with an explanatory output. */
  async expireQueuedRuns(olderThan: number, now: number): Promise<readonly CronRunRecord[]> {
    const expired: CronRunRecord[] = [];
    for (const run of this.#runs.values()) {
      if (run.state !== "pending" || run.startedAt >= olderThan) continue;
      const next: CronRunRecord = {
        ...run,
        state: "expired",
        success: false,
        finishedAt: now,
        durationMs: Math.max(0, now - run.startedAt),
        output: CRON_EXPIRED_RUN_OUTPUT,
      };
      this.#runs.set(run.id, next);
      expired.push(copy(next));
    }
    return expired.sort((left, right) => left.startedAt - right.startedAt || (left.id < right.id ? -1 : 1));
  }

  /** {@inheritDoc CronStore.getRun} */
  async getRun(runId: string): Promise<CronRunRecord | undefined> {
    const run = this.#runs.get(runId);
    return run === undefined ? undefined : copy(run);
  }

  /** {@inheritDoc CronStore.listRuns} Without `limit`, all of them. */
  async listRuns(taskId: string, options?: { readonly limit?: number }): Promise<readonly CronRunRecord[]> {
    const runs = [...this.#runs.values()].filter((run) => run.taskId === taskId).sort(compareCronRunsNewestFirst);
    return (options?.limit === undefined ? runs : runs.slice(0, Math.max(0, Math.floor(options.limit)))).map(copy);
  }

  /** {@inheritDoc CronStore.lastScheduledAt} */
  async lastScheduledAt(taskId: string): Promise<number | undefined> {
    let latest: number | undefined;
    for (const run of this.#runs.values()) if (run.taskId === taskId && (latest === undefined || run.scheduledAt > latest)) latest = run.scheduledAt;
    return latest;
  }

  /**
   * {@inheritDoc CronStore.pruneRuns} Finished means `done` or `expired`;
   * "older" compares `startedAt`. Pending and leased runs are never dropped.
   */
  async pruneRuns(input: { readonly keepPerTask: number; readonly olderThan: number }): Promise<number> {
    const byTask = new Map<string, CronRunRecord[]>();
    for (const run of this.#runs.values()) {
      if (run.state !== "done" && run.state !== "expired") continue;
      const list = byTask.get(run.taskId) ?? [];
      list.push(run);
      byTask.set(run.taskId, list);
    }
    const keep = Math.max(0, Math.floor(input.keepPerTask));
    let deleted = 0;
    for (const runs of byTask.values()) {
      runs.sort(compareCronRunsNewestFirst);
      runs.forEach((run, index) => {
        if (index >= keep || run.startedAt < input.olderThan) {
          this.#runs.delete(run.id);
          deleted += 1;
        }
      });
    }
    return deleted;
  }
}
