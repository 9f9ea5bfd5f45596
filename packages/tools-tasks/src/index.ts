/**
 * @agent-tools/tools-tasks: TaskCreate, TaskUpdate, TaskList and task state stores.
 *
 * @packageDocumentation
 */
export { createTaskToolBundle } from "./task-tool-bundle.js";
export type { TaskToolBundle, TaskToolBundleOptions } from "./task-tool-bundle.js";
export { createTaskRuntime } from "./task-runtime.js";
export type { TaskRun } from "./task-runtime.js";
export type { TaskListDetails, TaskRunResolver } from "./task-result.js";
export type { Task, TaskState, TaskStatus } from "./task-state.js";
export type { TaskStateStore } from "./task-state-store.js";
export { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
export { KyselyTaskStateStore } from "./kysely-task-state-store.js";
export { createFrozenTaskBlock } from "./authoritative-task-block.js";
export { taskTools } from "./task-tools-plugin.js";
