/**
 * @agent-tools/tools-tasks: TaskCreate, TaskUpdate, TaskList and task state stores.
 *
 * @packageDocumentation
 */
export { createTaskToolBundle } from "./task-tool-bundle.js";
export type { TaskToolBundleOptions } from "./task-tool-bundle.js";
