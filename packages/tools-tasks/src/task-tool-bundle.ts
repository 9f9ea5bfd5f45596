import type { Logger, ToolBundle, ToolContext, ToolDefinition } from "@agent-tools/core";
import { InMemoryTaskStateStore } from "./in-memory-task-state-store.js";
import { createTaskCreateTool } from "./task-create.js";
import { createTaskListTool } from "./task-list.js";
import type { TaskRunResolver } from "./task-result.js";
import { type TaskRun, type TaskRuntime, createTaskRuntime } from "./task-runtime.js";
import type { TaskStateStore } from "./task-state-store.js";
import { createTaskUpdateTool } from "./task-update.js";

/** The run used when the host names none. */
export const DEFAULT_TASK_RUN: TaskRun = { conversationId: "default", runId: "default" };

/** Options of {@link createTaskToolBundle}. */
export interface TaskToolBundleOptions {
  /**
   * Where lists persist: a store (the host closes it), or a factory opened
   * on the first call and closed with the bundle. Default: an
   * {@link InMemoryTaskStateStore} (lists live as long as the process);
   * `buildBuiltinToolRegistry` defaults to the SQLite file under `dataDir`.
   */
  store?: TaskStateStore | (() => Promise<TaskStateStore>);
  /**
   * The conversation and run of a call: fixed ids, or a function of the call
   * context (e.g. reading `context.hostContext`). Default
   * `{ conversationId: "default", runId: "default" }`. Give each user turn
   * its own `runId`: a list stored by another run is treated as absent.
   */
  run?: Partial<TaskRun> | TaskRunResolver;
  /** Receives warnings about corrupt stored state; default: the registry's logger. */
  logger?: Pick<Logger, "warn">;
}

/** The task bundle, with the runtime hosts use at run start and compaction. */
export interface TaskToolBundle extends ToolBundle {
  /** The operations behind the tools (same queue, same store). */
  readonly runtime: TaskRuntime;
}

/**
 * TaskCreate, TaskUpdate and TaskList as a bundle. Chat scope only; never
 * give it to subagent registries.
 *
 * @example
 * const tasks = createTaskToolBundle({
 *   store: await KyselyTaskStateStore.open(storage),
 *   run: (context) => context.hostContext as TaskRun,
 * });
 * const registry = createToolRegistry({ workdir, bundles: [tasks] });
 */
export function createTaskToolBundle(options: TaskToolBundleOptions = {}): TaskToolBundle {
  let contextLogger: Pick<Logger, "warn"> | undefined;
  const runtime = createTaskRuntime({
    store: options.store ?? new InMemoryTaskStateStore(),
    logger: { warn: (message, data) => (options.logger ?? contextLogger)?.warn(message, data) },
  });
  const fixed = typeof options.run === "function" ? undefined : { ...DEFAULT_TASK_RUN, ...options.run };
  const resolveRun: TaskRunResolver = (context: ToolContext) => {
    contextLogger = context.logger;
    return typeof options.run === "function" ? options.run(context) : fixed!;
  };
  const tools: ToolDefinition[] = [
    createTaskCreateTool(runtime, resolveRun),
    createTaskUpdateTool(runtime, resolveRun),
    createTaskListTool(runtime, resolveRun),
  ];
  return { id: "tasks", trusted: true, runtime, listTools: () => tools, close: () => runtime.close() };
}
