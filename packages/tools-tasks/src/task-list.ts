import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { type TaskListDetails, type TaskRunResolver, taskListOutput, taskToolMetadata } from "./task-result.js";
import type { TaskRuntime } from "./task-runtime.js";

/** TaskList takes no input. */
export const taskListInputSchema = z.object({});

const description = `Returns the current run's task list as JSON (empty until a task is created). Changes nothing.`;

/** Builds TaskList over a runtime. */
export function createTaskListTool(runtime: TaskRuntime, resolveRun: TaskRunResolver) {
  return defineTool<typeof taskListInputSchema, TaskListDetails>({
    name: "TaskList",
    description,
    inputSchema: taskListInputSchema,
    metadata: taskToolMetadata("task_list", true),
    scopes: ["chat"],
    async execute(_input, context) {
      return taskListOutput("listed", await runtime.getState(resolveRun(context)), undefined);
    },
  });
}
