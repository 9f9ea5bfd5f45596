import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type TaskListDetails, type TaskRunResolver, taskListOutput, taskToolMetadata } from "./task-result.js";
import { TASK_LIMITS } from "./task-limits.js";
import type { TaskRuntime } from "./task-runtime.js";

/** The input of TaskCreate: all three fields required, non-blank and within {@link TASK_LIMITS}. */
export const taskCreateInputSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, "subject must not be blank")
    .max(TASK_LIMITS.subjectChars)
    .describe('A short imperative title, e.g. "Add the config parser".'),
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
    .describe('The present-continuous form shown while the task is in progress, e.g. "Adding the config parser".'),
});

const description = `Adds a task to the task list of the current run and returns the whole list as JSON.
Use it to plan multi-step work: one task per concrete step, created in the order you will do them.
- New tasks are pending and get the next numeric-string id ("1", "2", ...); ids never change and are never reused.
- subject, description and activeForm are all required and must not be blank. At most ${TASK_LIMITS.subjectChars} characters for subject and activeForm, ${TASK_LIMITS.descriptionChars} for description.
- A list holds at most ${TASK_LIMITS.tasksPerList} tasks.
- There is no delete: mark a task completed when it is done or no longer needed.
- Track progress with TaskUpdate; read the list with TaskList.`;

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
