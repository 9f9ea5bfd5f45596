import { SdkError, type ToolDefinition, type ToolMetadata, defineTool } from "@agent-tools/core";
import { isValidTimeZone } from "../domain/cron-schedule.js";
import {
  CRON_UPDATABLE_FIELDS,
  type CronTaskFieldsInput,
  type CronTaskInputContext,
  validateCronTaskPatch,
  validateNewCronTask,
} from "../domain/cron-task-input.js";
import type { ToolEffects } from "@agent-tools/core/durable";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import { CRON_LIMITS, type CronTask } from "../domain/cron-types.js";
import type { CronStore, CronTaskPatch } from "../ports/cron-store.js";
import { applyCronTaskPatch } from "../ports/cron-task-patch.js";
import {
  type CronTaskManagerDetails,
  type CronTaskManagerOutput,
  changedOutput,
  cronFailure,
  deletedOutput,
  logsOutput,
  readAllOutput,
  readOneOutput,
  upcoming,
} from "./cron-task-manager-output.js";
import { CRON_TASK_MANAGER_DESCRIPTION, type CronTaskManagerInput, cronTaskManagerInputSchema } from "./cron-task-manager-schema.js";
import { type CronHttpToolOptions, checkTaskAgainstPolicy, cronPolicyOfContext, validateCronHttpOptions } from "./cron-task-policy-check.js";

/** Metadata of CronTaskManager. */
export const CRON_TASK_MANAGER_METADATA: ToolMetadata = Object.freeze({
  groupId: "system",
  kind: "cron",
  isReadOnly: false,
  displayCategory: "system",
  annotations: { readOnly: false, listedInPlanMode: false },
});

/**
 * What running a CronTaskManager call again would do, by action: reads
 * change nothing; an update sets the fields it names to the values given;
 * a second create makes a second task and a delete could remove a task
 * made in between, so those are never run twice after a crash.
 */
const CRON_TASK_MANAGER_EFFECTS: Readonly<Record<CronTaskManagerInput["action"], ToolEffects>> = Object.freeze({
  create: "unsafe",
  read: "none",
  update: "idempotent",
  delete: "unsafe",
  list_logs: "none",
});

/** What {@link createCronTaskManagerTool} takes. */
export interface CronTaskManagerToolOptions {
  /** The store, or a function opening it on first use (called again after a failure). */
  readonly store: CronStore | (() => Promise<CronStore>);
  /** The host's current chat model id; prompt tasks pin it. Without one, creating a prompt task is refused. */
  readonly currentModelId?: () => string | undefined;
  /** The clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
  /** IANA zone new tasks are read in and stored with; default the process's. */
  readonly timeZone?: string;
  /** What http tasks may reach besides public addresses; default only public ones. */
  readonly http?: CronHttpToolOptions;
}

const FIELDS = CRON_UPDATABLE_FIELDS;

function taskFields(input: CronTaskManagerInput): CronTaskFieldsInput {
  const fields: Record<string, unknown> = {};
  for (const field of FIELDS) if (input[field] !== undefined) fields[field] = input[field];
  return fields as CronTaskFieldsInput;
}

function notFound(id: string): CronTaskManagerOutput {
  return cronFailure(`task ${id} was not found; call CronTaskManager with action=read (no task_id) to list the tasks and their ids.`);
}

function needsTaskId(action: string): CronTaskManagerOutput {
  return cronFailure(`${action} needs task_id; call action=read without task_id to list the tasks and their ids.`);
}

function refusesFields(action: string, input: CronTaskManagerInput, allowed: readonly string[]): CronTaskManagerOutput | undefined {
  const extra = [...FIELDS, "limit"].filter((field) => !allowed.includes(field) && input[field as keyof CronTaskManagerInput] !== undefined);
  if (extra.length === 0) return undefined;
  return cronFailure(
    `${action} does not take ${extra.join(", ")}; remove ${extra.length === 1 ? "it" : "them"}${action === "read" ? " (use action=update to change a task)" : ""}.`,
  );
}

interface Environment {
  readonly store: CronStore;
  readonly now: number;
  readonly context: CronTaskInputContext;
  readonly timeZone?: string;
  /** The calling registry's rules: recorded with every task it creates or changes. */
  readonly policy: CronTaskPolicy;
  /** The registry's workspace when it is not the local disk: workdirs are checked through it. */
  readonly workspace?: Workspace;
}

async function run(input: CronTaskManagerInput, environment: Environment): Promise<CronTaskManagerOutput> {
  const { store, now, context } = environment;
  const { action } = input;
  const id = input.task_id?.trim() === "" ? undefined : input.task_id?.trim();
  switch (action) {
    case "create": {
      const refused =
        input.task_id !== undefined
          ? cronFailure("create does not take task_id (ids are assigned); remove it, or use action=update to change a task.")
          : refusesFields(action, input, FIELDS);
      if (refused) return refused;
      const checked = validateNewCronTask(taskFields(input), context);
      if (!checked.ok) return cronFailure(checked.message);
      const policed = await checkTaskAgainstPolicy(checked.value, environment.policy, environment.workspace);
      if ("message" in policed) return cronFailure(policed.message);
      const task = await store.createTask({ ...checked.value, ...policed, policy: environment.policy }, now);
      return changedOutput("create", task, upcoming(task, now, environment.timeZone));
    }
    case "read": {
      const refused = refusesFields(action, input, []);
      if (refused) return refused;
      if (id === undefined) return readAllOutput(await store.listTasks());
      const task = await store.getTask(id);
      return task === undefined ? notFound(id) : readOneOutput(task, upcoming(task, now, environment.timeZone));
    }
    case "update": {
      if (id === undefined) return needsTaskId(action);
      const refused = refusesFields(action, input, FIELDS);
      if (refused) return refused;
      const current = await store.getTask(id);
      if (current === undefined) return notFound(id);
      const checked = validateCronTaskPatch(current, taskFields(input), context);
      if (!checked.ok) return cronFailure(checked.message);
      const patch = await policedPatch(current, checked.value, environment.policy, environment.workspace);
      if ("message" in patch) return cronFailure(patch.message);
      const task = await store.updateTask(id, patch, now, { expectedVersion: current.version });
      if (task === undefined) return (await store.getTask(id)) === undefined ? notFound(id) : changedMeanwhile(id);
      return changedOutput("update", task, upcoming(task, now, environment.timeZone));
    }
    case "delete": {
      if (id === undefined) return needsTaskId(action);
      const refused = refusesFields(action, input, []);
      if (refused) return refused;
      const task = await store.getTask(id);
      if (task === undefined || !(await store.deleteTask(id))) return notFound(id);
      return deletedOutput(task);
    }
    case "list_logs": {
      if (id === undefined) return needsTaskId(action);
      const refused = refusesFields(action, input, ["limit"]);
      if (refused) return refused;
      const limit = input.limit ?? CRON_LIMITS.logLimitDefault;
      if (!Number.isInteger(limit) || limit < CRON_LIMITS.logLimitMin || limit > CRON_LIMITS.logLimitMax) {
        return cronFailure(
          `limit ${limit} is out of range; give a whole number from ${CRON_LIMITS.logLimitMin} to ${CRON_LIMITS.logLimitMax} (default ${CRON_LIMITS.logLimitDefault}).`,
        );
      }
      const task = await store.getTask(id);
      if (task === undefined) return notFound(id);
      return logsOutput(task, await store.listRuns(id, { limit }));
    }
  }
}

/**
 * Every change records the changing registry's rules, and the task as it
 * will be is checked against them unless it ends up disabled (enabling it
 * later checks again): a task never runs under rules wider than those of
 * the registry that last touched it.
 */
async function policedPatch(
  current: CronTask,
  patch: CronTaskPatch,
  policy: CronTaskPolicy,
  workspace: Workspace | undefined,
): Promise<CronTaskPatch | { readonly message: string }> {
  const next = structuredClone(current) as { -readonly [K in keyof CronTask]: CronTask[K] };
  applyCronTaskPatch(next, patch);
  if (!next.enabled) return { ...patch, policy };
  const policed = await checkTaskAgainstPolicy(next, policy, workspace);
  if ("message" in policed) return policed;
  return { ...patch, ...(policed.workdir !== undefined && policed.workdir !== next.workdir ? { workdir: policed.workdir } : {}), policy };
}

function changedMeanwhile(id: string): CronTaskManagerOutput {
  return cronFailure(`task ${id} was changed by someone else while updating; read it with action=read and task_id=${id}, then update again.`);
}

function storeResolver(store: CronTaskManagerToolOptions["store"]): () => Promise<CronStore> {
  if (typeof store !== "function") return async () => store;
  let opening: Promise<CronStore> | undefined;
  return () => {
    opening ??= store().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
}

/**
 * Builds CronTaskManager: create, read, update and delete scheduled tasks
 * (bash, http, prompt) and list their run logs. Offered in chat and cron
 * scopes. Every error answers `Cron task manager failed: <what and what to
 * do>` with `isError` and `details: {}` (argument shapes and enums are
 * checked earlier by the registry, in its own words).
 *
 * @example
 * const tool = createCronTaskManagerTool({ store: new InMemoryCronStore(), currentModelId: () => "gpt-x" });
 * const registry = createToolRegistry({ workdir, bundles: [{ id: "cron", trusted: true, listTools: () => [tool] }] });
 * await registry.executeToolCall({ id: "1", name: "CronTaskManager", arguments: { action: "read" } });
 */
export function createCronTaskManagerTool(
  options: CronTaskManagerToolOptions,
): ToolDefinition<CronTaskManagerInput, CronTaskManagerDetails | Record<string, never>> {
  if (options.timeZone !== undefined && !isValidTimeZone(options.timeZone)) {
    throw new SdkError(
      "invalid_options",
      `CronTaskManager: timeZone "${options.timeZone}" is not a known IANA time zone; pass one such as "Europe/Berlin", or leave it out for the process's zone.`,
    );
  }
  const allowedPrivateNetworks = validateCronHttpOptions(options.http);
  const openStore = storeResolver(options.store);
  const clock = options.now ?? Date.now;
  return defineTool<typeof cronTaskManagerInputSchema, CronTaskManagerDetails | Record<string, never>>({
    name: "CronTaskManager",
    description: CRON_TASK_MANAGER_DESCRIPTION,
    inputSchema: cronTaskManagerInputSchema,
    metadata: CRON_TASK_MANAGER_METADATA,
    scopes: ["chat", "cron"],
    loopKey: (input) => `${input.action}:${input.task_id ?? ""}`,
    effects: (input) => CRON_TASK_MANAGER_EFFECTS[input.action],
    async execute(input, toolContext) {
      let store: CronStore;
      try {
        store = await openStore();
      } catch (error) {
        return cronFailure(`the cron task store could not be opened (${messageOf(error)}); try again later or ask the user to check the host's storage.`);
      }
      const now = clock();
      const currentModelId = options.currentModelId?.();
      const context: CronTaskInputContext = {
        workdir: toolContext.workdir,
        now,
        ...(currentModelId === undefined ? {} : { currentModelId }),
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      };
      try {
        const policy = cronPolicyOfContext(toolContext, allowedPrivateNetworks);
        const workspace = toolContext.ports.workspace;
        return await run(input, {
          store,
          now,
          context,
          policy,
          ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
          ...(workspace === undefined || workspace.capabilities.localPaths ? {} : { workspace }),
        });
      } catch (error) {
        return cronFailure(`the cron task store failed (${messageOf(error)}); try again, and if it keeps failing ask the user to check the host's storage.`);
      }
    },
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
