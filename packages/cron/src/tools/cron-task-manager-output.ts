import type { ToolOutput } from "@agent-tools/core";
import { nextFireTimes } from "../domain/cron-schedule.js";
import { cronErrorText, formatCronRunLogs, formatCronTaskLine, formatNextFireTimes } from "../domain/cron-text.js";
import { CRON_LIMITS, type CronRunRecord, type CronTask } from "../domain/cron-types.js";
import type { CronTaskManagerAction } from "./cron-task-manager-schema.js";

/** What a successful CronTaskManager answer reports in `details`. Errors carry `{}`. */
export interface CronTaskManagerDetails {
  readonly kind: "cron";
  readonly action: CronTaskManagerAction;
  /** The task created, read, updated or deleted. */
  readonly task?: CronTask;
  /** Every task (`read` without task_id). */
  readonly tasks?: readonly CronTask[];
  /** Runs of `list_logs`, newest first. */
  readonly runs?: readonly CronRunRecord[];
  /** The next fire times shown (epoch ms). */
  readonly nextFireTimes?: readonly number[];
}

/** The output of any CronTaskManager error: the prefixed message, `isError`, `details: {}`. */
export type CronTaskManagerOutput = ToolOutput<CronTaskManagerDetails | Record<string, never>>;

/** An error answer. */
export function cronFailure(message: string): CronTaskManagerOutput {
  return { content: cronErrorText(message), isError: true, details: {} };
}

/** The next fire times of a task after `now`; none when its schedule no longer parses. */
export function upcoming(task: CronTask, now: number, timeZone?: string): number[] {
  try {
    return nextFireTimes(task.cron, now, CRON_LIMITS.nextFireTimesShown, task.timeZone ?? timeZone);
  } catch {
    return [];
  }
}

/** The answer of create and update: a headline, the task line and its next fire times. */
export function changedOutput(action: "create" | "update", task: CronTask, times: readonly number[]): CronTaskManagerOutput {
  const headline = action === "create" ? `Created cron task ${task.id}.` : `Updated cron task ${task.id}.`;
  return {
    content: [headline, formatCronTaskLine(task), formatNextFireTimes(times, task.enabled)].join("\n"),
    details: { kind: "cron", action, task, nextFireTimes: times },
  };
}

function taskBody(task: CronTask): string[] {
  const lines: string[] = [];
  if (task.description !== "") lines.push(`description=${JSON.stringify(task.description)}`);
  if (task.workdir !== undefined && task.type !== "http") lines.push(`workdir=${task.workdir}`);
  if (task.timeZone !== undefined) lines.push(`time_zone=${task.timeZone}`);
  if (task.type === "prompt") lines.push(`model=${task.selectedModel ?? "none"} | reasoning=${task.reasoning ?? "none"}`);
  if (task.type === "bash" && task.script !== undefined) lines.push("script:", task.script);
  if (task.type === "prompt" && task.prompt !== undefined) lines.push("prompt:", task.prompt);
  if (task.type === "http") {
    lines.push("requests:");
    for (const request of task.requests ?? []) {
      const headers = request.headers === undefined ? "" : ` headers=${JSON.stringify(request.headers)}`;
      const body = request.body === undefined ? "" : ` body=${JSON.stringify(request.body)}`;
      lines.push(`${request.id} ${request.method} ${request.url}${headers}${body}`);
    }
  }
  return lines;
}

/** The answer of read with task_id: the task line, next fire times, then its other fields. */
export function readOneOutput(task: CronTask, times: readonly number[]): CronTaskManagerOutput {
  return {
    content: [formatCronTaskLine(task), formatNextFireTimes(times, task.enabled), ...taskBody(task)].join("\n"),
    details: { kind: "cron", action: "read", task, nextFireTimes: times },
  };
}

/** The answer of read without task_id: one line per task. */
export function readAllOutput(tasks: readonly CronTask[]): CronTaskManagerOutput {
  const content =
    tasks.length === 0
      ? "No cron tasks yet. Create one with action=create."
      : [`${tasks.length} cron task${tasks.length === 1 ? "" : "s"}:`, ...tasks.map(formatCronTaskLine)].join("\n");
  return { content, details: { kind: "cron", action: "read", tasks } };
}

/** The answer of delete. */
export function deletedOutput(task: CronTask): CronTaskManagerOutput {
  return {
    content: `Deleted cron task ${task.id} (${JSON.stringify(task.name)}) and its run logs.`,
    details: { kind: "cron", action: "delete", task },
  };
}

/** The answer of list_logs. */
export function logsOutput(task: CronTask, runs: readonly CronRunRecord[]): CronTaskManagerOutput {
  return { content: formatCronRunLogs(task.id, runs), details: { kind: "cron", action: "list_logs", task, runs } };
}
