/**
 * @agent-tools/cron: scheduled agent tasks. The CronTaskManager tool creates,
 * reads, updates and deletes tasks (bash scripts, HTTP requests, or prompts
 * run by the host's model with a cron-scope registry) on six-field cron
 * schedules; a scheduler the host starts fires due occurrences, claiming
 * each one atomically in the store so that N schedulers on one PostgreSQL
 * database run every occurrence exactly once, and keeps run logs.
 *
 * @packageDocumentation
 */
export type {
  CronTask,
  CronMissedRunPolicy,
} from "./domain/cron-types.js";
export type { CronTaskPolicy } from "./domain/cron-task-policy.js";
export type { CronStore } from "./ports/cron-store.js";

// Domain: schedules, input validation, texts (pure).

// Ports and stores: memory, SQLite and PostgreSQL.
export { InMemoryCronStore } from "./ports/in-memory-cron-store.js";
export { KyselyCronStore } from "./stores/kysely-cron-store.js";
export { acquireSqliteSchedulerLock } from "./stores/cron-scheduler-lock.js";

// Tools: CronTaskManager.
export { createCronTaskManagerTool } from "./tools/cron-task-manager-tool.js";
export type { CronTaskManagerToolOptions } from "./tools/cron-task-manager-tool.js";
export type { CronHttpToolOptions } from "./tools/cron-task-policy-check.js";
export type { CronTaskManagerDetails } from "./tools/cron-task-manager-output.js";

// Runtime: the scheduler, its clock and the task runners.
export { startCronScheduler } from "./runtime/cron-scheduler.js";
export type { CronSchedulerOptions, CronSchedulerHandle, CronSchedulerLock } from "./runtime/cron-scheduler.js";
export type { CronSchedulerEvent } from "./runtime/cron-scheduler-events.js";
export type { CronTaskExecutor } from "./runtime/cron-run-executor.js";
export type { CronBashSandbox } from "./runtime/bash-task-runner.js";

// Outbound HTTP on a model's behalf: the SSRF guard and the client that dials only checked addresses.
export { cronTools } from "./tools/cron-tools-plugin.js";
