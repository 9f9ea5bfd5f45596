/**
 * The shared vocabulary of the cron package: tasks, their HTTP requests,
 * run records and the limits. Pure types and constants.
 */
import type { CronTaskPolicy } from "./cron-task-policy.js";

/** Limits and defaults of cron tasks and their run logs. */
export const CRON_LIMITS = Object.freeze({
  /** Default `timeout_seconds` of every type. */
  timeoutDefaultSeconds: 300,
  /** Largest `timeout_seconds` of bash and http tasks. */
  timeoutMaxSeconds: 600,
  /** Largest `timeout_seconds` of prompt tasks. */
  promptTimeoutMaxSeconds: 3600,
  /** A run's output is cut to this many characters. */
  outputMaxChars: 50_000,
  /** Run records kept per task (newest first). */
  runsKeptPerTask: 200,
  /** Run records older than this are deleted, in milliseconds (30 days). */
  runRetentionMs: 30 * 24 * 60 * 60 * 1000,
  /** A queued prompt run nobody claimed within this is expired, in milliseconds (10 minutes). */
  promptQueueExpiryMs: 10 * 60 * 1000,
  /** How often the expiry sweeper runs, in milliseconds. */
  sweepIntervalMs: 30 * 1000,
  /** `list_logs` limit bounds and default. */
  logLimitMin: 1,
  logLimitMax: 500,
  logLimitDefault: 100,
  /** A log line shows at most this many characters of output. */
  logOutputChars: 600,
  /** Longest task name and description. */
  nameMaxChars: 200,
  descriptionMaxChars: 2_000,
  /** Most HTTP requests of one http task. */
  requestsMax: 20,
  /** Next fire times shown in answers. */
  nextFireTimesShown: 3,
});

/** The prefix of every CronTaskManager error. */
export const CRON_ERROR_PREFIX = "Cron task manager failed: ";

/** Task types. */
export type CronTaskType = "bash" | "http" | "prompt";

/** HTTP methods an http task may use (default POST). */
export const CRON_HTTP_METHODS = Object.freeze(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const);

/** One of {@link CRON_HTTP_METHODS}. */
export type CronHttpMethod = (typeof CRON_HTTP_METHODS)[number];

/** Reasoning levels a prompt task may carry (the tool always sets `medium`). */
export const CRON_REASONING_LEVELS = Object.freeze(["off", "minimal", "low", "medium", "high", "xhigh", "max"] as const);

/** One of {@link CRON_REASONING_LEVELS}. */
export type CronReasoning = (typeof CRON_REASONING_LEVELS)[number];

/** One request of an http task. */
export interface CronHttpRequest {
  /** Assigned on create (`req-1`, `req-2`, ...). */
  readonly id: string;
  /** Absolute http(s) URL. */
  readonly url: string;
  readonly method: CronHttpMethod;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** A stored task. Times are epoch milliseconds. */
export interface CronTask {
  /** `cron_<random>`; unique. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** Six fields: second minute hour day-of-month month day-of-week. */
  readonly cron: string;
  readonly enabled: boolean;
  /** null = unlimited; 0 = exhausted (the task no longer fires). */
  readonly remainingExecutions: number | null;
  readonly timeoutSeconds: number;
  readonly type: CronTaskType;
  /** bash tasks: the script (run with `bash -c` in `workdir`). */
  readonly script?: string;
  /** http tasks. */
  readonly requests?: readonly CronHttpRequest[];
  /** prompt tasks: the user message of the run. */
  readonly prompt?: string;
  /** prompt tasks: the model id pinned on create (the host's current model). */
  readonly selectedModel?: string;
  /** prompt tasks: always `medium` when created by the tool. */
  readonly reasoning?: CronReasoning;
  /** bash and prompt tasks: absolute working directory; http tasks carry none. */
  readonly workdir?: string;
  /** The last run's error, cleared by a successful run. */
  readonly lastError?: string;
  /** IANA time zone the schedule is read in; default the scheduler's. */
  readonly timeZone?: string;
  /**
   * The roots, sandbox and network of the registry that created or last
   * changed the task, which every run obeys. A task without one (stored
   * before policies were recorded, or by a host without one) does not run.
   */
  readonly policy?: CronTaskPolicy;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Incremented on every change (optimistic concurrency and change detection). */
  readonly version: number;
}

/** Run states: `pending` (queued prompt run), `leased` (running), `done`, `expired`. */
export type CronRunState = "pending" | "leased" | "done" | "expired";

/** One run of a task: one scheduled occurrence. */
export interface CronRunRecord {
  /** `run_<random>`; unique. */
  readonly id: string;
  readonly taskId: string;
  /** The occurrence this run is for (epoch ms); (taskId, scheduledAt) is unique. */
  readonly scheduledAt: number;
  readonly state: CronRunState;
  /** Meaningful once done. */
  readonly success: boolean;
  /** When the run was claimed (queued, for prompt runs), epoch ms. */
  readonly startedAt: number;
  readonly finishedAt?: number;
  readonly durationMs: number;
  /** bash: the exit code (null when killed); http: the last status. */
  readonly exitCode?: number | null;
  /** At most `CRON_LIMITS.outputMaxChars`. */
  readonly output: string;
  /** The scheduler holding the lease while `leased`. */
  readonly leaseOwner?: string;
  /** When the lease lapses unless renewed (epoch ms). */
  readonly leaseExpiresAt?: number;
}

/** What to do with occurrences missed while no scheduler ran. */
export type CronMissedRunPolicy = "skip" | "run_once";
