/**
 * Reads the task list that TaskCreate, TaskUpdate and TaskList report in
 * `details.tasks`.
 */

/** One task as a card shows it. */
export interface TaskView {
  id: string;
  subject: string;
  /** `pending`, `in_progress` or `completed`. */
  status: string;
  activeForm?: string;
}

/** The tools whose cards show the task list. */
export const TASK_TOOL_NAMES: readonly string[] = ["TaskCreate", "TaskUpdate", "TaskList"];

/**
 * The tasks in a task tool's details, in their order; undefined when there is no list.
 *
 * @example
 * taskViews({ kind: "task_list", tasks: [{ id: "1", subject: "Parse", status: "pending" }] });
 * // [{ id: "1", subject: "Parse", status: "pending", activeForm: undefined }]
 */
export function taskViews(details: unknown): TaskView[] | undefined {
  if (details === null || typeof details !== "object") return undefined;
  const tasks = (details as { tasks?: unknown }).tasks;
  if (!Array.isArray(tasks)) return undefined;
  return tasks
    .filter((task): task is Record<string, unknown> => task !== null && typeof task === "object")
    .map((task) => ({
      id: String(task.id ?? "?"),
      subject: String(task.subject ?? ""),
      status: String(task.status ?? "pending"),
      activeForm: typeof task.activeForm === "string" && task.activeForm !== "" ? task.activeForm : undefined,
    }));
}

/** The id of the task a TaskCreate / TaskUpdate changed, from `details.taskId`. */
export function changedTaskId(details: unknown): string | undefined {
  if (details === null || typeof details !== "object") return undefined;
  const id = (details as { taskId?: unknown }).taskId;
  return typeof id === "string" || typeof id === "number" ? String(id) : undefined;
}
