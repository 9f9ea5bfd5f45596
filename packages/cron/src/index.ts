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
export {
  CRON_LIMITS,
  CRON_ERROR_PREFIX,
  CRON_HTTP_METHODS,
  CRON_REASONING_LEVELS,
} from "./domain/cron-types.js";
export type {
  CronTaskType,
  CronHttpMethod,
  CronReasoning,
  CronHttpRequest,
  CronTask,
  CronRunState,
  CronRunRecord,
  CronMissedRunPolicy,
} from "./domain/cron-types.js";
export { cronTaskPolicyProblem, cronPolicyAllowsNetwork } from "./domain/cron-task-policy.js";
export type { CronTaskPolicy, CronPolicyRoot } from "./domain/cron-task-policy.js";
export { CRON_CLEARABLE_TASK_FIELDS } from "./ports/cron-store.js";
export type { NewCronTask, CronTaskPatch, CronClearableTaskField, CronClaimRequest, CronLeaseRequest, CronRunResult, CronStore } from "./ports/cron-store.js";

// Domain: schedules, input validation, texts (pure).
export { parseCronSchedule, nextFireTimes, occurrencesBetween, isValidTimeZone, CRON_SCHEDULE_EXAMPLE } from "./domain/cron-schedule.js";
export type { CronScheduleCheck } from "./domain/cron-schedule.js";
export { validateNewCronTask, validateCronTaskPatch, cronTimeoutMaxSeconds, CRON_UPDATABLE_FIELDS } from "./domain/cron-task-input.js";
export type { CronTaskFieldsInput, CronTaskInputContext, CronInputCheck } from "./domain/cron-task-input.js";
export { validateCronRequests } from "./domain/cron-request-input.js";
export type { CronHttpRequestInput } from "./domain/cron-request-input.js";
export { formatCronTaskLine, formatCronRunLog, formatCronRunLogs, formatNextFireTimes, cronErrorText } from "./domain/cron-text.js";
export { capRunOutput, describeHttpResults } from "./domain/cron-run-output.js";
export type { CronHttpRequestResult } from "./domain/cron-run-output.js";

// Ports and stores: memory, SQLite and PostgreSQL.
export { InMemoryCronStore } from "./ports/in-memory-cron-store.js";
export { applyCronTaskPatch } from "./ports/cron-task-patch.js";
export { KyselyCronStore } from "./stores/kysely-cron-store.js";
export { CRON_STORAGE_NAMESPACE, CRON_STORAGE_MIGRATIONS } from "./stores/cron-migrations.js";
export { acquireSqliteSchedulerLock, DEFAULT_SCHEDULER_LOCK_STALE_MS } from "./stores/cron-scheduler-lock.js";
export type { SqliteSchedulerLock, SqliteSchedulerLockOptions } from "./stores/cron-scheduler-lock.js";

// Tools: CronTaskManager.
export { createCronTaskManagerTool, CRON_TASK_MANAGER_METADATA } from "./tools/cron-task-manager-tool.js";
export type { CronTaskManagerToolOptions } from "./tools/cron-task-manager-tool.js";
export type { CronHttpToolOptions } from "./tools/cron-task-policy-check.js";
export { CRON_TASK_MANAGER_ACTIONS, CRON_TASK_MANAGER_DESCRIPTION, cronTaskManagerInputSchema } from "./tools/cron-task-manager-schema.js";
export type { CronTaskManagerInput } from "./tools/cron-task-manager-schema.js";
export type { CronTaskManagerDetails } from "./tools/cron-task-manager-output.js";

// Runtime: the scheduler, its clock and the task runners.
export { startCronScheduler } from "./runtime/cron-scheduler.js";
export type { CronSchedulerOptions, CronSchedulerHandle, CronSchedulerLock } from "./runtime/cron-scheduler.js";
export type { CronSchedulerEvent } from "./runtime/cron-scheduler-events.js";
export { systemCronClock, ManualCronClock } from "./runtime/cron-clock.js";
export type { CronClock } from "./runtime/cron-clock.js";
export type { CronTaskExecutor } from "./runtime/cron-run-executor.js";
export type { CronTaskOutcome } from "./runtime/cron-task-outcome.js";
export { runBashTask } from "./runtime/bash-task-runner.js";
export type { CronBashSandbox, CronBashConfinement, CronBashConfinementRequest } from "./runtime/bash-task-runner.js";
export { liveCronPolicyRoots, judgeCronWorkdir } from "./runtime/cron-workdir-check.js";
export type { LiveCronPolicyRoots, CronWorkdirVerdict } from "./runtime/cron-workdir-check.js";
export { runHttpTask } from "./runtime/http-task-runner.js";
export { runPromptTask, defaultCronSystemPrompt, PROMPT_MAX_ROUNDS_DEFAULT } from "./runtime/prompt-task-runner.js";
export type { BuildPromptRegistry } from "./runtime/prompt-task-runner.js";

// Outbound HTTP on a model's behalf: the SSRF guard and the client that dials only checked addresses.
export { createSsrfGuard, parseAllowedPrivateNetworks, isSsrfRefusal } from "./outbound/ssrf-guard.js";
export type { SsrfGuard, SsrfGuardOptions, CheckedTarget, CheckedAddress, ResolveHost, ResolvedHostAddress } from "./outbound/ssrf-guard.js";
export { sendGuardedHttpRequest, GUARDED_HTTP_MAX_REDIRECTS } from "./outbound/guarded-http-request.js";
export type { GuardedHttpRequestInit, GuardedHttpResponse } from "./outbound/guarded-http-request.js";
export { classifyAddress } from "./outbound/address-ranges.js";
export type { NonPublicAddress } from "./outbound/address-ranges.js";
export { parseIpAddress, parseIpNetwork } from "./outbound/ip-address.js";
export type { IpAddress, IpNetwork } from "./outbound/ip-address.js";
