/**
 * Table names and row types of the cron store, and the conversions between
 * rows and domain records (null columns become absent fields; booleans are
 * 0/1 integers on both dialects; an http task's requests are JSON text).
 */
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronHttpRequest, CronReasoning, CronRunRecord, CronRunState, CronTask, CronTaskType } from "../domain/cron-types.js";

/** Tasks, by id. */
export const CRON_TASKS_TABLE = "agent_tools_cron_tasks";
/** Runs, by id; (task_id, scheduled_at) is unique: the exactly-once claim rests on it. */
export const CRON_RUNS_TABLE = "agent_tools_cron_runs";
/** The SQLite rule "one scheduler per database": at most one row. */
export const CRON_SCHEDULER_LOCK_TABLE = "agent_tools_cron_scheduler_lock";

/** A timestamp or count column: PostgreSQL hands `bigint` back as a string. */
type Numeric = number | string;

/** A row of {@link CRON_TASKS_TABLE}. */
export interface CronTaskRow {
  id: string;
  name: string;
  description: string;
  cron: string;
  enabled: Numeric;
  remaining_executions: Numeric | null;
  timeout_seconds: Numeric;
  type: string;
  script: string | null;
  requests_json: string | null;
  prompt: string | null;
  selected_model: string | null;
  reasoning: string | null;
  workdir: string | null;
  last_error: string | null;
  time_zone: string | null;
  /** The task's {@link CronTaskPolicy} as JSON; null for tasks stored before it was recorded. */
  policy_json: string | null;
  created_at: Numeric;
  updated_at: Numeric;
  version: Numeric;
}

/** A row of {@link CRON_RUNS_TABLE}. */
export interface CronRunRow {
  id: string;
  task_id: string;
  scheduled_at: Numeric;
  state: string;
  success: Numeric;
  started_at: Numeric;
  finished_at: Numeric | null;
  duration_ms: Numeric;
  /** 1 when `exit_code` was given (it may be null: killed), 0 when absent. */
  has_exit_code: Numeric;
  exit_code: Numeric | null;
  output: string;
  lease_owner: string | null;
  lease_expires_at: Numeric | null;
}

/** A row of {@link CRON_SCHEDULER_LOCK_TABLE}. */
export interface CronSchedulerLockRow {
  id: string;
  owner: string;
  heartbeat_at: Numeric;
  acquired_at: Numeric;
}

/** The tables of the cron store, for Kysely. */
export interface CronDatabase {
  [CRON_TASKS_TABLE]: CronTaskRow;
  [CRON_RUNS_TABLE]: CronRunRow;
  [CRON_SCHEDULER_LOCK_TABLE]: CronSchedulerLockRow;
}

const optionalNumber = (value: Numeric | null): number | undefined => (value === null ? undefined : Number(value));

/** Drops keys whose value is `undefined`. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** A stored task as a row. */
export function taskToRow(task: CronTask): CronTaskRow {
  return {
    id: task.id,
    name: task.name,
    description: task.description,
    cron: task.cron,
    enabled: task.enabled ? 1 : 0,
    remaining_executions: task.remainingExecutions,
    timeout_seconds: task.timeoutSeconds,
    type: task.type,
    script: task.script ?? null,
    requests_json: task.requests === undefined ? null : JSON.stringify(task.requests),
    prompt: task.prompt ?? null,
    selected_model: task.selectedModel ?? null,
    reasoning: task.reasoning ?? null,
    workdir: task.workdir ?? null,
    last_error: task.lastError ?? null,
    time_zone: task.timeZone ?? null,
    policy_json: task.policy === undefined ? null : JSON.stringify(task.policy),
    created_at: task.createdAt,
    updated_at: task.updatedAt,
    version: task.version,
  };
}

/** A task row as the domain record. */
export function rowToTask(row: CronTaskRow): CronTask {
  return compact({
    id: row.id,
    name: row.name,
    description: row.description,
    cron: row.cron,
    enabled: Number(row.enabled) === 1,
    remainingExecutions: row.remaining_executions === null ? null : Number(row.remaining_executions),
    timeoutSeconds: Number(row.timeout_seconds),
    type: row.type as CronTaskType,
    script: row.script ?? undefined,
    requests: row.requests_json === null ? undefined : (JSON.parse(row.requests_json) as CronHttpRequest[]),
    prompt: row.prompt ?? undefined,
    selectedModel: row.selected_model ?? undefined,
    reasoning: (row.reasoning ?? undefined) as CronReasoning | undefined,
    workdir: row.workdir ?? undefined,
    lastError: row.last_error ?? undefined,
    timeZone: row.time_zone ?? undefined,
    policy: parsePolicy(row.policy_json),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    version: Number(row.version),
  });
}

/**
 * The stored policy; text that is not JSON comes back as a value the runner
 * refuses (its shape is checked there, fail closed), never as "no policy".
 */
function parsePolicy(text: string | null): CronTaskPolicy | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as CronTaskPolicy;
  } catch {
    return { unreadable: text } as unknown as CronTaskPolicy;
  }
}

/** A run row as the domain record. */
export function rowToRun(row: CronRunRow): CronRunRecord {
  return compact({
    id: row.id,
    taskId: row.task_id,
    scheduledAt: Number(row.scheduled_at),
    state: row.state as CronRunState,
    success: Number(row.success) === 1,
    startedAt: Number(row.started_at),
    finishedAt: optionalNumber(row.finished_at),
    durationMs: Number(row.duration_ms),
    exitCode: Number(row.has_exit_code) === 1 ? (row.exit_code === null ? null : Number(row.exit_code)) : undefined,
    output: row.output,
    leaseOwner: row.lease_owner ?? undefined,
    leaseExpiresAt: optionalNumber(row.lease_expires_at),
  });
}
