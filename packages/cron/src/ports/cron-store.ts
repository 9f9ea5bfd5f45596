import type { CronRunRecord, CronTask } from "../domain/cron-types.js";

/** Fields of a new task (id, times and version are assigned by the store). */
export type NewCronTask = Omit<CronTask, "id" | "createdAt" | "updatedAt" | "version"> & { readonly id?: string };

/** Optional task fields a patch may clear with `null` (a type change drops the old type's fields). */
export const CRON_CLEARABLE_TASK_FIELDS = Object.freeze([
  "script",
  "requests",
  "prompt",
  "selectedModel",
  "reasoning",
  "workdir",
  "timeZone",
  "lastError",
] as const);

/** One of {@link CRON_CLEARABLE_TASK_FIELDS}. */
export type CronClearableTaskField = (typeof CRON_CLEARABLE_TASK_FIELDS)[number];

/**
 * A change to a task: any subset of its changeable fields; `null` clears one
 * of {@link CRON_CLEARABLE_TASK_FIELDS} (`remainingExecutions: null` is a
 * value: unlimited).
 */
export type CronTaskPatch = Partial<Omit<CronTask, "id" | "createdAt" | "updatedAt" | "version" | CronClearableTaskField>> & {
  readonly [K in CronClearableTaskField]?: CronTask[K] | null;
};

/** The outcome of a finished run. */
export interface CronRunResult {
  readonly success: boolean;
  readonly finishedAt: number;
  readonly exitCode?: number | null;
  /** Cut to `CRON_LIMITS.outputMaxChars` by the store if longer. */
  readonly output: string;
}

/** Who takes a lease, when, and for how long. */
export interface CronLeaseRequest {
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
}

/** A claim of one occurrence (see {@link CronStore.claimOccurrence}). */
export interface CronClaimRequest extends CronLeaseRequest {
  readonly taskId: string;
  readonly scheduledAt: number;
  /** Queue the run (`pending`, no owner) for a prompt runner instead of leasing it. */
  readonly queue?: boolean;
}

/**
 * Where cron tasks and their runs live. Every method is atomic. The
 * exactly-once guarantee rests on {@link CronStore.claimOccurrence}: the
 * pair (taskId, scheduledAt) is unique, so of N schedulers that race for an
 * occurrence exactly one gets the run record.
 *
 * Adapters: `InMemoryCronStore` (one process), `KyselyCronStore` on SQLite
 * (one scheduler per database) and PostgreSQL (any number of schedulers).
 * The contract suite `runCronStoreContract` (`@agent-tools/cron/testing`)
 * runs over all three.
 */
export interface CronStore {
  createTask(task: NewCronTask, now: number): Promise<CronTask>;
  getTask(id: string): Promise<CronTask | undefined>;
  listTasks(options?: { readonly enabledOnly?: boolean }): Promise<readonly CronTask[]>;
  /**
   * Applies `patch`; with `expectedVersion`, only when the stored version
   * still equals it (returns undefined when it does not or the task is gone).
   */
  updateTask(id: string, patch: CronTaskPatch, now: number, options?: { readonly expectedVersion?: number }): Promise<CronTask | undefined>;
  /** Deletes the task and its runs; false when it did not exist. */
  deleteTask(id: string): Promise<boolean>;
  /**
   * The task count, the sum of their versions and the largest `updatedAt`, cheap to poll: a scheduler
   * reloads its tasks when any of them changes (a task created or changed through
   * the tool is picked up without a restart).
   */
  tasksFingerprint(): Promise<{ readonly count: number; readonly maxUpdatedAt: number; readonly versionSum: number }>;

  /**
   * Claims one occurrence: inserts its run record, `leased` to `owner`
   * until `now + leaseMs` (`pending` without an owner when `queue` is true:
   * prompt runs wait for a prompt runner), and, in the same transaction,
   * decrements `remainingExecutions` when it is a number (refusing when it
   * is 0). Returns undefined when another scheduler already claimed the
   * occurrence, or the task is gone, disabled or exhausted.
   */
  claimOccurrence(input: CronClaimRequest): Promise<CronRunRecord | undefined>;
  /** Takes the oldest `pending` run (prompt queue) for `owner`; undefined when none. */
  claimQueuedRun(input: CronLeaseRequest): Promise<CronRunRecord | undefined>;
  /** Extends a lease the owner still holds; false when it lost it. */
  renewLease(runId: string, owner: string, leaseExpiresAt: number): Promise<boolean>;
  /**
   * Takes over `leased` runs whose lease lapsed before `now` (their
   * scheduler died): they are leased to `owner` again and returned, at
   * most `limit`.
   */
  takeOverExpiredLeases(input: CronLeaseRequest & { readonly limit: number }): Promise<readonly CronRunRecord[]>;
  /** Marks a run done (only while `owner` holds its lease); false when it does not. */
  finishRun(runId: string, owner: string, result: CronRunResult): Promise<boolean>;
  /** Expires `pending` runs queued before `olderThan`; returns them. */
  expireQueuedRuns(olderThan: number, now: number): Promise<readonly CronRunRecord[]>;
  getRun(runId: string): Promise<CronRunRecord | undefined>;
  /** A task's runs, newest occurrence first. */
  listRuns(taskId: string, options?: { readonly limit?: number }): Promise<readonly CronRunRecord[]>;
  /** The latest claimed occurrence of a task (for missed-run decisions), or undefined. */
  lastScheduledAt(taskId: string): Promise<number | undefined>;
  /** Keeps the newest `keepPerTask` finished runs of every task and drops finished runs older than `olderThan`; returns how many it deleted. */
  pruneRuns(input: { readonly keepPerTask: number; readonly olderThan: number }): Promise<number>;
  close?(): Promise<void>;
}
