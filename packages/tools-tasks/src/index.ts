/**
 * @agent-tools/tools-tasks: TaskCreate, TaskUpdate, TaskList and task state stores.
 *
 * @packageDocumentation
 */
export { createTaskToolBundle, DEFAULT_TASK_RUN } from "./task-tool-bundle.js";
export type { TaskToolBundle, TaskToolBundleOptions } from "./task-tool-bundle.js";
export { createTaskRuntime } from "./task-runtime.js";
export type { CreateTaskInput, TaskChange, TaskRun, TaskRuntime, TaskRuntimeOptions, UpdateTaskInput } from "./task-runtime.js";
export type { TaskListDetails, TaskRunResolver } from "./task-result.js";
export { TASK_LIMITS } from "./task-limits.js";
export { TASK_STATUSES, emptyTaskState, parseStoredTaskState, tasksInProgress } from "./task-state.js";
export type { ParsedTaskState, Task, TaskState, TaskStatus } from "./task-state.js";
export type { SaveTaskStateOptions, StoredTaskState, TaskStateStore } from "./task-state-store.js";
export { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
export { KyselyTaskStateStore, TASK_STATE_TABLE, TASK_STORAGE_MIGRATIONS, TASK_STORAGE_NAMESPACE } from "./kysely-task-state-store.js";
export { createTaskCreateTool, taskCreateInputSchema } from "./task-create.js";
export { createTaskUpdateTool, taskUpdateInputSchema } from "./task-update.js";
export { createTaskListTool, taskListInputSchema } from "./task-list.js";
export { AUTHORITATIVE_TASK_BLOCK_HEADING, createFrozenTaskBlock, renderAuthoritativeTaskBlock } from "./authoritative-task-block.js";
export type { FrozenTaskBlock } from "./authoritative-task-block.js";
export { taskTools } from "./task-tools-plugin.js";
