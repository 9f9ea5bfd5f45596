/**
 * The task list of one run: its shape, the empty state, and the parser that
 * checks a stored state before it is trusted.
 */

/** Every task status. There is no deleted or cancelled status. */
export const TASK_STATUSES = ["pending", "in_progress", "completed"] as const;

/** One of {@link TASK_STATUSES}. */
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One task of the list. */
export interface Task {
  /** A numeric string, `"1"` for the first task; never reused within a run. */
  readonly id: string;
  /** A short imperative title ("Add the parser"). */
  readonly subject: string;
  /** What done means. */
  readonly description: string;
  /** The present-continuous form a UI shows while the task runs ("Adding the parser"). */
  readonly activeForm: string;
  readonly status: TaskStatus;
}

/** The task list of one run. */
export interface TaskState {
  /** The run (user turn) the list belongs to; a list of another run is treated as absent. */
  readonly runId: string;
  /** Starts at 0; +1 on every create or update. */
  readonly revision: number;
  /** The id the next created task gets; starts at 1. */
  readonly nextTaskId: number;
  /** In creation order. */
  readonly tasks: readonly Task[];
}

/** The state of a run that has no tasks yet. */
export function emptyTaskState(runId: string): TaskState {
  return { runId, revision: 0, nextTaskId: 1, tasks: [] };
}

/** The tasks currently `in_progress` (at most one in a valid state). */
export function tasksInProgress(state: TaskState): Task[] {
  return state.tasks.filter((task) => task.status === "in_progress");
}

/** The outcome of {@link parseStoredTaskState}. */
export type ParsedTaskState = { ok: true; state: TaskState } | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isCount = (value: unknown, minimum: number): value is number => Number.isSafeInteger(value) && (value as number) >= minimum;

/**
 * Checks a stored task state (a JSON value or JSON text) before it is used:
 * the shape and types, numeric-string ids inside `[1, nextTaskId)`, no
 * duplicate ids, at most one `in_progress` task. Corrupt state is reported,
 * never repaired; callers drop it with a warning.
 *
 * @example
 * const parsed = parseStoredTaskState(record.state);
 * const state = parsed.ok ? parsed.state : emptyTaskState(runId);
 */
export function parseStoredTaskState(value: unknown): ParsedTaskState {
  let input = value;
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch {
      return { ok: false, reason: "the stored task state is not valid JSON" };
    }
  }
  if (!isRecord(input)) return { ok: false, reason: "the stored task state is not an object" };
  const { runId, revision, nextTaskId, tasks } = input;
  if (typeof runId !== "string" || runId === "") return { ok: false, reason: "runId must be a non-empty string" };
  if (!isCount(revision, 0)) return { ok: false, reason: "revision must be an integer >= 0" };
  if (!isCount(nextTaskId, 1)) return { ok: false, reason: "nextTaskId must be an integer >= 1" };
  if (!Array.isArray(tasks)) return { ok: false, reason: "tasks must be an array" };
  const seen = new Set<string>();
  const parsedTasks: Task[] = [];
  let inProgress = 0;
  for (const task of tasks) {
    if (!isRecord(task)) return { ok: false, reason: "every task must be an object" };
    const { id, subject, description, activeForm, status } = task;
    if (typeof id !== "string" || !/^[1-9]\d*$/.test(id)) return { ok: false, reason: `task id ${JSON.stringify(id)} is not a numeric string` };
    if (Number(id) >= nextTaskId) return { ok: false, reason: `task id ${id} is outside [1, ${nextTaskId})` };
    if (seen.has(id)) return { ok: false, reason: `task id ${id} appears twice` };
    if (typeof subject !== "string" || typeof description !== "string" || typeof activeForm !== "string") {
      return { ok: false, reason: `task ${id} must have string subject, description and activeForm` };
    }
    if (!(TASK_STATUSES as readonly unknown[]).includes(status)) return { ok: false, reason: `task ${id} has an unknown status ${JSON.stringify(status)}` };
    if (status === "in_progress") inProgress += 1;
    seen.add(id);
    parsedTasks.push({ id, subject, description, activeForm, status: status as TaskStatus });
  }
  if (inProgress > 1) return { ok: false, reason: `${inProgress} tasks are in_progress; at most one may be` };
  return { ok: true, state: { runId, revision, nextTaskId, tasks: parsedTasks } };
}
