import { z } from "zod";
import { CRON_LIMITS } from "../domain/cron-types.js";

/** Actions of CronTaskManager. */
export const CRON_TASK_MANAGER_ACTIONS = ["create", "read", "update", "delete", "list_logs"] as const;

/** One of {@link CRON_TASK_MANAGER_ACTIONS}. */
export type CronTaskManagerAction = (typeof CRON_TASK_MANAGER_ACTIONS)[number];

/**
 * The input of CronTaskManager: one flat object, the fields each action
 * uses. The schema checks shapes and enums only; ranges and the rules
 * between fields are checked by the tool (`validateNewCronTask`,
 * `validateCronTaskPatch`) so their messages carry the tool's error prefix
 * and name the fix.
 */
export const cronTaskManagerInputSchema = z.object({
  action: z.enum(CRON_TASK_MANAGER_ACTIONS),
  task_id: z.string().optional(),
  name: z.string().optional(),
  description: z.string().optional(),
  cron: z.string().optional().describe('6 fields: second minute hour day-of-month month day-of-week, e.g. "0 */5 * * * *"'),
  type: z.enum(["bash", "http", "prompt"]).optional(),
  enabled: z.boolean().optional(),
  remaining_executions: z.number().nullable().optional().describe("runs left; null = unlimited, 0 = exhausted"),
  timeout_seconds: z
    .number()
    .optional()
    .describe(
      `default ${CRON_LIMITS.timeoutDefaultSeconds}; max ${CRON_LIMITS.timeoutMaxSeconds} (bash, http), ${CRON_LIMITS.promptTimeoutMaxSeconds} (prompt)`,
    ),
  script: z.string().optional().describe("bash tasks"),
  requests: z
    .array(
      z.object({
        url: z.string(),
        method: z.string().optional().describe("GET POST PUT PATCH DELETE HEAD OPTIONS; default POST"),
        headers: z.record(z.string(), z.string()).optional(),
        body: z.string().optional(),
      }),
    )
    .optional()
    .describe(`http tasks: 1-${CRON_LIMITS.requestsMax} requests with absolute http(s) urls`),
  prompt: z.string().optional().describe("prompt tasks"),
  workdir: z.string().optional().describe("bash/prompt: absolute; empty or omitted = current workspace"),
  limit: z.number().optional().describe(`list_logs: ${CRON_LIMITS.logLimitMin}-${CRON_LIMITS.logLimitMax}, default ${CRON_LIMITS.logLimitDefault}`),
});

/** Parsed CronTaskManager input. */
export type CronTaskManagerInput = z.output<typeof cronTaskManagerInputSchema>;

/** The description the model reads (kept short: it is sent with every request). */
export const CRON_TASK_MANAGER_DESCRIPTION = `Scheduled tasks that run without the user: bash (script in workdir), http (requests), prompt (a message run on the current chat model).
create: name, cron, type + script|requests|prompt. read: one task (task_id) or all. update: task_id + fields to change. delete: task_id. list_logs: task_id, limit; newest first.
A workdir must lie in the workspace or a root granted with write access; tasks run under this registry's sandbox and network rules. http requests reach public addresses only and need network access.
Times in answers are UTC ISO.`;
