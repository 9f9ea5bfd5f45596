/**
 * Not public API: shared by the @agent-tools packages, may change in any release.
 *
 * The stored task-state parser and the SQL table name the task stores and
 * their contract suite use. Hosts import from `@agent-tools/tools-tasks`.
 *
 * @packageDocumentation
 */
export { parseStoredTaskState } from "./task-state.js";
export { TASK_STATE_TABLE } from "./kysely-task-state-store.js";
export { taskCreateInputSchema } from "./task-create.js";
export { taskUpdateInputSchema } from "./task-update.js";
export { taskListInputSchema } from "./task-list.js";
