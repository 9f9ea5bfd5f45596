import type { ToolPlugin } from "@agent-tools/core";
import { type TaskToolBundleOptions, createTaskToolBundle } from "./task-tool-bundle.js";

/**
 * The task tools (TaskCreate, TaskUpdate, TaskList) as a plugin, chat scope
 * only; a subagent's child registry gets them too. Without `store` the list
 * lives in memory.
 *
 * @example
 * const registry = await composeToolRegistry({ workdir, plugins: [taskTools({ store })] });
 */
export function taskTools(options: TaskToolBundleOptions = {}): ToolPlugin {
  return { id: "tasks", scopes: ["chat"], child: "inherit", create: () => createTaskToolBundle(options) };
}
