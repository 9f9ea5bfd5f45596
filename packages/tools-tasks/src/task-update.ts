import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type TaskListDetails, type TaskRunResolver, taskListOutput, taskToolMetadata } from "./task-result.js";
import { TASK_LIMITS } from "./task-limits.js";
import type { TaskRuntime } from "./task-runtime.js";
import { TASK_STATUSES } from "./task-state.js";

/** The input of TaskUpdate: the task id plus the fields to change, within {@link TASK_LIMITS}. */
export const taskUpdateInputSchema = z.object({
  taskId: z
    .string()
    .trim()
    .min(1, "taskId must not be blank")
    .max(TASK_LIMITS.taskIdChars)
    .describe('The id of the task to change, a numeric string such as "3".'),
  subject: z.string().trim().min(1, "subject must not be blank").max(TASK_LIMITS.subjectChars).optional().describe("A new title."),
  description: z.string().trim().min(1, "description must not be blank").max(TASK_LIMITS.descriptionChars).optional().describe("A new description."),
  activeForm: z.string().trim().min(1, "activeForm must not be blank").max(TASK_LIMITS.activeFormChars).optional().describe("A new present-continuous form."),
  status: z.enum(TASK_STATUSES).optional().describe("pending, in_progress or completed."),
});

const description = `Changes one task of the current run's task list and returns the whole list as JSON.
- taskId is the task's numeric-string id ("3"); only the fields you pass change, and you must pass at least one of subject, description, activeForm, status.
- At most ${TASK_LIMITS.subjectChars} characters for subject and activeForm, ${TASK_LIMITS.descriptionChars} for description.
- status is pending, in_progress or completed. At most one task may be in_progress: complete the current one (or set it back to pending) before starting another.
- Set a task in_progress when you start it and completed as soon as it is done.
- Fails when no task list exists yet for this run (use TaskCreate first) or the id does not exist (use TaskList).`;

/** Builds TaskUpdate over a runtime. */
export function createTaskUpdateTool(runtime: TaskRuntime, resolveRun: TaskRunResolver) {
  return defineTool<typeof taskUpdateInputSchema, TaskListDetails>({
    name: "TaskUpdate",
    description,
    inputSchema: taskUpdateInputSchema,
    metadata: taskToolMetadata("task_update", false),
    scopes: ["chat"],
    async execute(input, context) {
      const { state, task } = await runtime.updateTask(resolveRun(context), input);
      return taskListOutput("updated", state, `Updated task ${task.id}.`, task.id);
    },
  });
}
