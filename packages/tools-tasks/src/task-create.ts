import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type TaskListDetails, type TaskRunResolver, taskListOutput, taskToolMetadata } from "./task-result.js";
import { TASK_LIMITS } from "./task-limits.js";
import type { TaskRuntime } from "./task-runtime.js";

/** The input of TaskCreate: all three fields required, non-blank and within {@link TASK_LIMITS}. */
export const taskCreateInputSchema = z.object({
  subject: z.string().trim().min(1, "subject must not be blank").max(TASK_LIMITS.subjectChars).describe("Short imperative title."),
  description: z
    .string()
    .trim()
    .min(1, "description must not be blank")
    .max(TASK_LIMITS.descriptionChars)
    .describe("What the task involves and what done means."),
  activeForm: z
    .string()
    .trim()
    .min(1, "activeForm must not be blank")
    .max(TASK_LIMITS.activeFormChars)
    .describe('Shown while in progress, e.g. "Adding the config parser".'),
});

const description = `Adds a pending task to the current run's task list and returns the list as JSON. Plan multi-step work as one task per concrete step, in order.
- No field may be blank; at most ${TASK_LIMITS.subjectChars} characters for subject and activeForm, ${TASK_LIMITS.descriptionChars} for description.
- At most ${TASK_LIMITS.tasksPerList} tasks per list, completed ones included: there is no delete, so mark a task completed when done or no longer needed.`;

/** Builds TaskCreate over a runtime. */
export function createTaskCreateTool(runtime: TaskRuntime, resolveRun: TaskRunResolver) {
  return defineTool<typeof taskCreateInputSchema, TaskListDetails>({
    name: "TaskCreate",
    description,
    inputSchema: taskCreateInputSchema,
    metadata: taskToolMetadata("task_create", false),
    scopes: ["chat"],
    async execute(input, context) {
      const { state, task } = await runtime.createTask(resolveRun(context), input);
      return taskListOutput("created", state, `Created task ${task.id}.`, task.id);
    },
  });
}
