import type { ToolContext, ToolKind, ToolMetadata, ToolOutput } from "@agent-tools/core";
import type { TaskRun } from "./task-runtime.js";
import type { Task, TaskState } from "./task-state.js";

/** What every task tool reports in `details`. */
export interface TaskListDetails {
  readonly kind: "task_list";
  readonly action: "created" | "updated" | "listed";
  readonly runId: string;
  readonly revision: number;
  readonly tasks: readonly Task[];
  /** The created or updated task. */
  readonly taskId?: string;
}

/** Finds the run of a call (conversation and run ids). */
export type TaskRunResolver = (context: ToolContext) => TaskRun;

/** Metadata of the task tools; TaskList alone is read-only. */
export function taskToolMetadata(kind: ToolKind, isReadOnly: boolean): ToolMetadata {
  return { groupId: "task", kind, isReadOnly, displayCategory: "system", annotations: { readOnly: isReadOnly, listedInPlanMode: isReadOnly } };
}

/** The tool result for a state: a first line for the model, then the list as JSON. */
export function taskListOutput(
  action: TaskListDetails["action"],
  state: TaskState,
  headline: string | undefined,
  taskId?: string,
): ToolOutput<TaskListDetails> {
  const json = JSON.stringify(state);
  return {
    content: headline === undefined ? json : `${headline}\n${json}`,
    details: { kind: "task_list", action, runId: state.runId, revision: state.revision, tasks: state.tasks, ...(taskId === undefined ? {} : { taskId }) },
  };
}
