import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type TaskListDetails, type TaskRunResolver, taskListOutput, taskToolMetadata } from "./task-result.js";
import { TASK_LIMITS } from "./task-limits.js";
import type { TaskRuntime } from "./task-runtime.js";
import { TASK_STATUSES } from "./task-state.js";

/** The input of TaskUpdate: the task id plus the fields to change, within {@link TASK_LIMITS}. */
export const taskUpdateInputSchema = z.object({
  taskId: z.string().trim().min(1, "taskId must not be blank").max(TASK_LIMITS.taskIdChars).describe('Numeric string, e.g. "3".'),
  subject: z.string().trim().min(1, "subject must not be blank").max(TASK_LIMITS.subjectChars).optional(),
  description: z.string().trim().min(1, "description must not be blank").max(TASK_LIMITS.descriptionChars).optional(),
  activeForm: z.string().trim().min(1, "activeForm must not be blank").max(TASK_LIMITS.activeFormChars).optional(),
  status: z.enum(TASK_STATUSES).optional(),
});

const description = `Changes the fields you pass (at least one) of one task in the current run's list and returns the list as JSON. At most ${TASK_LIMITS.subjectChars} characters for subject and activeForm, ${TASK_LIMITS.descriptionChars} for description.
- At most one task may be in_progress: complete it (or set it back to pending) before starting another. Set in_progress when you start a task, completed as soon as it is done.
- Fails when this run has no list yet or the id does not exist.`;

/** Builds TaskUpdate over a runtime. */
export function createTaskUpdateTool(runtime: TaskRuntime, resolveRun: TaskRunResolver) {
  return defineTool<typeof taskUpdateInputSchema, TaskListDetails>({
    name: "TaskUpdate",
    description,
    inputSchema: taskUpdateInputSchema,
    metadata: taskToolMetadata("task_update", false),
    scopes: ["chat"],
    // It sets the fields it names to the values given: a second run leaves the list as one does.
    effects: "idempotent",
    async execute(input, context) {
      const { state, task } = await runtime.updateTask(resolveRun(context), input);
      return taskListOutput("updated", state, `Updated task ${task.id}.`, task.id);
    },
  });
}
