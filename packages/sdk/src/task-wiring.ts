import { randomUUID } from "node:crypto";
import { SdkError, ToolError } from "@agent-tools/core";
import type { TaskRun, TaskRunResolver, TaskToolBundleOptions } from "@agent-tools/tools-tasks";
import { type OptionKeyList, describeOptionValue as describe, rejectUnknownKeys } from "./option-keys.js";

const TASK_OPTION_KEYS = { store: true, run: true, logger: true } as const satisfies OptionKeyList<TaskToolBundleOptions>;
const TASK_RUN_KEYS = { conversationId: true, runId: true } as const satisfies OptionKeyList<TaskRun>;

/** The run id of a list when neither the host's `tasks.run` nor the registry names one. */
const DEFAULT_RUN_ID = "default";

/**
 * The key a built-in registry keeps a conversation's task list under by
 * default: the canonical workdir plus the conversation id. A host whose one
 * registry serves several conversations can key each call's list the same
 * way from its `tasks.run` function (`context.workdir` is canonical).
 *
 * @example
 * const registry = await buildBuiltinToolRegistry({
 *   workdir,
 *   tasks: { run: (context) => ({ conversationId: workdirTaskListKey(context.workdir, conversationOf(context)), runId: "default" }) },
 * });
 */
export function workdirTaskListKey(workdir: string, conversationId: string): string {
  return JSON.stringify({ workdir, conversationId });
}

/** What {@link sdkTaskBundleOptions} reads from the registry's options. */
export interface SdkTaskWiringInput {
  readonly tasks?: TaskToolBundleOptions;
  readonly conversationId?: string;
  readonly subagents?: { readonly conversationId?: string };
}

/**
 * The task bundle options of a built-in registry, checked fail-closed.
 *
 * Which list a call works on:
 * - `tasks.run` with a `conversationId` (or a function): exactly that key,
 *   so registries given the same one share a list on purpose;
 * - otherwise the registry's workdir (canonical) plus its `conversationId`
 *   (or the subagents' one), so a conversation finds its list again;
 * - otherwise the workdir plus an id made now, so the list is this
 *   registry's alone (no other registry or process sees it).
 */
export function sdkTaskBundleOptions(input: SdkTaskWiringInput): TaskToolBundleOptions {
  const tasks = checkTaskOptions(input.tasks);
  const conversationId = checkConversationId(input.conversationId, "conversationId") ?? conversationOfSubagents(input.subagents);
  const run = tasks.run;
  if (typeof run === "function") return { ...tasks, run: checkedResolver(run) };
  const runId = run?.runId ?? DEFAULT_RUN_ID;
  if (run?.conversationId !== undefined) return { ...tasks, run: { conversationId: run.conversationId, runId } };
  // Made once per registry: without a conversation id, no other registry or process can name this list.
  const registryId = randomUUID();
  const key = (workdir: string) =>
    conversationId === undefined ? JSON.stringify({ workdir, registry: registryId }) : workdirTaskListKey(workdir, conversationId);
  return { ...tasks, run: (context): TaskRun => ({ conversationId: key(context.workdir), runId }) };
}

/**
 * Checks the `tasks` option fail-closed (unknown keys, a store or logger of
 * the wrong shape, fixed run ids that are not non-empty strings) and returns
 * it, `{}` when absent. Throws `SdkError` (`invalid_options`) naming the
 * option by its path (`where`, default `tasks`).
 */
export function checkTaskOptions(tasks: unknown, where = "tasks"): TaskToolBundleOptions {
  if (tasks === undefined) return {};
  if (tasks === null || typeof tasks !== "object" || Array.isArray(tasks)) {
    throw new SdkError("invalid_options", `${where} must be an object ({ store?, run?, logger? }), not ${describe(tasks)}.`);
  }
  rejectUnknownKeys(tasks as Record<string, unknown>, TASK_OPTION_KEYS, where);
  const { store, run, logger } = tasks as TaskToolBundleOptions;
  if (store !== undefined && typeof store !== "function" && !isStore(store)) {
    throw new SdkError("invalid_options", `${where}.store must be a TaskStateStore (load, save and delete methods) or a function opening one.`);
  }
  if (logger !== undefined && (logger === null || typeof (logger as { warn?: unknown }).warn !== "function")) {
    throw new SdkError("invalid_options", `${where}.logger must have a warn method.`);
  }
  if (run === undefined || typeof run === "function") return tasks as TaskToolBundleOptions;
  if (run === null || typeof run !== "object" || Array.isArray(run)) {
    throw new SdkError("invalid_options", `${where}.run must be { conversationId?, runId? } or a function of the call context, not ${describe(run)}.`);
  }
  rejectUnknownKeys(run as Record<string, unknown>, TASK_RUN_KEYS, `${where}.run`);
  checkConversationId(run.conversationId, `${where}.run.conversationId`);
  checkConversationId(run.runId, `${where}.run.runId`);
  return tasks as TaskToolBundleOptions;
}

function isStore(store: unknown): boolean {
  if (store === null || typeof store !== "object") return false;
  const candidate = store as Record<string, unknown>;
  return typeof candidate.load === "function" && typeof candidate.save === "function" && typeof candidate.delete === "function";
}

function checkConversationId(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new SdkError("invalid_options", `${name} must be a non-empty string, not ${describe(value)}.`, { option: name });
  }
  return value;
}

function conversationOfSubagents(subagents: SdkTaskWiringInput["subagents"]): string | undefined {
  const id = subagents?.conversationId;
  return typeof id === "string" && id.trim() !== "" ? id : undefined;
}

/** The host's function, with what it returns checked on every call (a bad run must never fall back to a shared key). */
function checkedResolver(resolve: TaskRunResolver): TaskRunResolver {
  return (context) => {
    const run = resolve(context) as Partial<TaskRun> | undefined;
    const valid = (id: unknown) => typeof id === "string" && id.trim() !== "";
    if (run === null || typeof run !== "object" || !valid(run.conversationId) || !valid(run.runId)) {
      throw new ToolError(
        "unavailable",
        "The host's tasks.run function did not return { conversationId, runId } as non-empty strings, so the task tools cannot tell whose list this is. The host must fix its tasks.run option.",
        { recoverable: false, details: { recoverable: false } },
      );
    }
    return run as TaskRun;
  };
}
