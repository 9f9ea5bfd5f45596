/**
 * The text formats of the CronTaskManager's answers: one line per task,
 * one entry per run log, the next fire times, and the error prefix.
 */
import { CRON_ERROR_PREFIX, CRON_LIMITS, type CronRunRecord, type CronTask } from "./cron-types.js";

/** What a task line prints for a task without a last error. */
export const CRON_NO_LAST_ERROR = "none";

/** The marker after a log's output cut to {@link CRON_LIMITS.logOutputChars}. */
export const CRON_LOG_TRUNCATED_MARKER = "...[truncated]";

/** A task line shows at most this many characters of the last error. */
export const CRON_LAST_ERROR_LINE_CHARS = 300;

/** How a run's outcome is shown in a log line. */
export type CronRunStatus = "success" | "failed" | "expired" | "running" | "pending";

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * One task on one line:
 * `task_id=cron_x | name="nightly" | type=bash | cron=0 0 3 * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=none`.
 * The name is JSON-quoted (quotes and backslashes escaped); the last error
 * is folded onto one line and cut to {@link CRON_LAST_ERROR_LINE_CHARS}
 * characters (`...` appended); none prints {@link CRON_NO_LAST_ERROR}.
 */
export function formatCronTaskLine(task: CronTask): string {
  const remaining = task.remainingExecutions === null ? "unlimited" : String(task.remainingExecutions);
  let lastError = task.lastError === undefined || task.lastError.trim() === "" ? CRON_NO_LAST_ERROR : oneLine(task.lastError);
  if (lastError.length > CRON_LAST_ERROR_LINE_CHARS) lastError = `${lastError.slice(0, CRON_LAST_ERROR_LINE_CHARS)}...`;
  return [
    `task_id=${task.id}`,
    `name=${JSON.stringify(task.name)}`,
    `type=${task.type}`,
    `cron=${task.cron}`,
    `enabled=${task.enabled}`,
    `remaining_executions=${remaining}`,
    `timeout_seconds=${task.timeoutSeconds}`,
    `last_error=${lastError}`,
  ].join(" | ");
}

/** `success` / `failed` once done, `expired`, or `running` (leased) / `pending` (queued) while not finished. */
export function cronRunStatus(run: Pick<CronRunRecord, "state" | "success">): CronRunStatus {
  switch (run.state) {
    case "done":
      return run.success ? "success" : "failed";
    case "expired":
      return "expired";
    case "leased":
      return "running";
    case "pending":
      return "pending";
  }
}

/**
 * One run log: `N. [success|failed|expired|running|pending] started_at=<ISO> duration_ms=<ms>`,
 * then, on the next line, the output cut to {@link CRON_LIMITS.logOutputChars}
 * characters followed by {@link CRON_LOG_TRUNCATED_MARKER} when longer. An
 * empty output adds no line.
 *
 * @example
 * formatCronRunLog(run, 1); // "1. [success] started_at=2026-01-01T03:00:00.000Z duration_ms=12\nbackup done"
 */
export function formatCronRunLog(run: CronRunRecord, position: number): string {
  const header = `${position}. [${cronRunStatus(run)}] started_at=${new Date(run.startedAt).toISOString()} duration_ms=${run.durationMs}`;
  if (run.output === "") return header;
  const output = run.output.length > CRON_LIMITS.logOutputChars ? `${run.output.slice(0, CRON_LIMITS.logOutputChars)}${CRON_LOG_TRUNCATED_MARKER}` : run.output;
  return `${header}\n${output}`;
}

/** Run logs, newest first, numbered from 1; `No runs yet for task <id>.` when there are none. */
export function formatCronRunLogs(taskId: string, runs: readonly CronRunRecord[]): string {
  if (runs.length === 0) return `No runs yet for task ${taskId}.`;
  return [`Runs of task ${taskId} (${runs.length}, newest first):`, ...runs.map((run, index) => formatCronRunLog(run, index + 1))].join("\n");
}

/**
 * `next_fire_times=<ISO>, <ISO>, <ISO>` (UTC), or `next_fire_times=none (the schedule matches no future date)`
 * when the list is empty, with `(disabled: it will not fire until enabled)` appended for a disabled task.
 */
export function formatNextFireTimes(times: readonly number[], enabled = true): string {
  const list = times.length === 0 ? "none (the schedule matches no future date)" : times.map((time) => new Date(time).toISOString()).join(", ");
  return `next_fire_times=${list}${enabled ? "" : " (disabled: it will not fire until enabled)"}`;
}

/** `Cron task manager failed: <message>`: every error of the tool starts so. */
export function cronErrorText(message: string): string {
  return `${CRON_ERROR_PREFIX}${message}`;
}
