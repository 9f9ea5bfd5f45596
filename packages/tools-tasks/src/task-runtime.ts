import { type Logger, ToolError } from "@agent-tools/core";
import { TASK_LIMITS, taskTextChars } from "./task-limits.js";
import { type Task, type TaskState, type TaskStatus, emptyTaskState, parseStoredTaskState } from "./task-state.js";
import type { TaskStateStore } from "./task-state-store.js";

/** Which list a call works on: the conversation's stored list, valid for one run (user turn). */
export interface TaskRun {
  /** The key the list is stored under (one list per conversation). */
  readonly conversationId: string;
  /** The current run; a stored list of another run is treated as absent. */
  readonly runId: string;
}

/** What TaskCreate adds. Every field is required and non-empty after trimming. */
export interface CreateTaskInput {
  readonly subject: string;
  readonly description: string;
  readonly activeForm: string;
}

/** What TaskUpdate changes: only the given fields. */
export interface UpdateTaskInput {
  readonly taskId: string;
  readonly subject?: string;
  readonly description?: string;
  readonly activeForm?: string;
  readonly status?: TaskStatus;
}

/** A changed list and the task the change was about. */
export interface TaskChange {
  readonly state: TaskState;
  readonly task: Task;
}

/** Options of {@link createTaskRuntime}. */
export interface TaskRuntimeOptions {
  /**
   * A store, or a factory opened on first use (and closed by {@link TaskRuntime.close}).
   * A factory may reject with a `ToolError` that says what happened and what
   * to do (the tools answer with it as is); any other rejection becomes an
   * `unavailable` error that is not recoverable.
   */
  readonly store: TaskStateStore | (() => Promise<TaskStateStore>);
  /**
   * Receives a warning when corrupt stored state is dropped, and once when
   * the store factory first fails for good (a non-recoverable failure).
   */
  readonly logger?: Pick<Logger, "warn">;
}

/**
 * The task list operations behind the tools, for hosts too (run start,
 * compaction). Every operation runs through one queue, in call order; a
 * change is persisted before it is returned, and a failed persist leaves the
 * stored list as it was.
 */
export interface TaskRuntime {
  /** The run's list: empty when none is stored, the stored one is of another run, or it is corrupt. */
  getState(run: TaskRun): Promise<TaskState>;
  /** Call when a run starts: a stored list of another run (or a corrupt one) is replaced by an empty list of this run. */
  startRun(run: TaskRun): Promise<TaskState>;
  /** Appends a pending task with the next id; refused past {@link TASK_LIMITS} (field sizes, tasks per list, characters per list). */
  createTask(run: TaskRun, input: CreateTaskInput): Promise<TaskChange>;
  /** Changes the given fields of one task (within {@link TASK_LIMITS}); at most one task may be in_progress. */
  updateTask(run: TaskRun, input: UpdateTaskInput): Promise<TaskChange>;
  /** Closes the store when the runtime opened it from a factory. */
  close(): Promise<void>;
}

interface Loaded {
  state: TaskState | undefined;
  version: number | undefined;
}

/**
 * Creates the task runtime over a store.
 *
 * @example
 * const tasks = createTaskRuntime({ store: new InMemoryTaskStateStore() });
 * await tasks.startRun({ conversationId: "c1", runId: "turn-7" });
 */
export function createTaskRuntime(options: TaskRuntimeOptions): TaskRuntime {
  const ownsStore = typeof options.store === "function";
  let opening: Promise<TaskStateStore> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const warned = new Set<string>();
  let reportedUnavailable = false;

  const store = (): Promise<TaskStateStore> => {
    if (typeof options.store !== "function") return Promise.resolve(options.store);
    const factory = options.store;
    opening ??= factory().catch((error: unknown) => {
      opening = undefined; // the next call tries again: a host may fix the cause without a restart
      const failure = storeOpenFailure(error);
      if (!failure.recoverable && !reportedUnavailable) {
        reportedUnavailable = true;
        options.logger?.warn(`Task tools: ${failure.message}`, { code: failure.code, details: failure.details });
      }
      throw failure;
    });
    return opening;
  };

  const enqueue = <T>(operation: () => Promise<T>): Promise<T> => {
    const result = queue.then(operation, operation);
    queue = result.catch(() => undefined);
    return result;
  };

  const load = async (run: TaskRun): Promise<Loaded> => {
    const taskStore = await store();
    let record;
    try {
      record = await taskStore.load(run.conversationId);
    } catch (error) {
      throw new ToolError("io", "Failed to load task state. Retry the call.", { cause: error });
    }
    if (record === undefined) return { state: undefined, version: undefined };
    const parsed = parseStoredTaskState(record.state);
    if (!parsed.ok) {
      const key = `${run.conversationId}\u0000${record.version}`;
      if (!warned.has(key)) {
        warned.add(key);
        options.logger?.warn("Dropping corrupt stored task state", { conversationId: run.conversationId, reason: parsed.reason });
      }
      return { state: undefined, version: record.version };
    }
    return { state: parsed.state.runId === run.runId ? parsed.state : undefined, version: record.version };
  };

  const commit = async (run: TaskRun, loaded: Loaded, next: TaskState): Promise<TaskState> => {
    const taskStore = await store();
    let saved: boolean;
    try {
      saved = await taskStore.save(run.conversationId, next, { expectedVersion: loaded.version });
    } catch (error) {
      throw new ToolError("io", "Failed to persist task state. The task list did not change; retry the call.", { cause: error });
    }
    if (!saved) {
      throw new ToolError("conflict", "Failed to persist task state: another writer changed the task list. Call TaskList, then retry.");
    }
    return next;
  };

  const findTask = (state: TaskState | undefined, taskId: string): { state: TaskState; index: number } => {
    if (state === undefined) throw new ToolError("not_found", "No task list exists for the current run. Create tasks with TaskCreate first.");
    const index = state.tasks.findIndex((task) => task.id === taskId);
    if (index < 0) throw new ToolError("not_found", `Task ${taskId} does not exist. Call TaskList to see the task ids.`, { details: { taskId } });
    return { state, index };
  };

  return {
    getState: (run) => enqueue(async () => (await load(run)).state ?? emptyTaskState(run.runId)),

    startRun: (run) =>
      enqueue(async () => {
        const loaded = await load(run);
        if (loaded.state !== undefined) return loaded.state;
        const empty = emptyTaskState(run.runId);
        return loaded.version === undefined ? empty : commit(run, loaded, empty);
      }),

    createTask: (run, input) =>
      enqueue(async () => {
        checkFieldSizes(input);
        const loaded = await load(run);
        const current = loaded.state ?? emptyTaskState(run.runId);
        if (current.tasks.length >= TASK_LIMITS.tasksPerList) {
          throw new ToolError(
            "limit_reached",
            `The task list already holds ${current.tasks.length} tasks, the most one list may hold (${TASK_LIMITS.tasksPerList}). Do not add more: finish the listed tasks, or rewrite a completed one with TaskUpdate.`,
            { details: { tasks: current.tasks.length, limit: TASK_LIMITS.tasksPerList } },
          );
        }
        const task: Task = {
          id: String(current.nextTaskId),
          subject: input.subject,
          description: input.description,
          activeForm: input.activeForm,
          status: "pending",
        };
        const next: TaskState = { ...current, revision: current.revision + 1, nextTaskId: current.nextTaskId + 1, tasks: [...current.tasks, task] };
        checkListSize(next);
        return { state: await commit(run, loaded, next), task };
      }),

    updateTask: (run, input) =>
      enqueue(async () => {
        checkFieldSizes(input);
        const loaded = await load(run);
        const { state, index } = findTask(loaded.state, input.taskId);
        const changes: { -readonly [Key in keyof Task]?: Task[Key] } = {};
        if (input.subject !== undefined) changes.subject = input.subject;
        if (input.description !== undefined) changes.description = input.description;
        if (input.activeForm !== undefined) changes.activeForm = input.activeForm;
        if (input.status !== undefined) changes.status = input.status;
        if (Object.keys(changes).length === 0) {
          throw new ToolError("invalid_arguments", "TaskUpdate requires at least one field to update: subject, description, activeForm or status.");
        }
        if (input.status === "in_progress") {
          const other = state.tasks.find((task) => task.status === "in_progress" && task.id !== input.taskId);
          if (other !== undefined) {
            throw new ToolError("conflict", `Another task (${other.id}) is already in_progress. Complete it or set it back to pending first.`, {
              details: { taskId: input.taskId, inProgressTaskId: other.id },
            });
          }
        }
        const task: Task = { ...state.tasks[index]!, ...changes };
        const tasks = state.tasks.map((existing, position) => (position === index ? task : existing));
        const next: TaskState = { ...state, revision: state.revision + 1, tasks };
        checkListSize(next);
        return { state: await commit(run, loaded, next), task };
      }),

    async close() {
      await queue;
      if (!ownsStore || opening === undefined) return;
      const opened = await opening.catch(() => undefined);
      opening = undefined;
      await opened?.close?.();
    },
  };
}

const FIELD_LIMITS = [
  ["subject", TASK_LIMITS.subjectChars],
  ["description", TASK_LIMITS.descriptionChars],
  ["activeForm", TASK_LIMITS.activeFormChars],
  ["taskId", TASK_LIMITS.taskIdChars],
] as const;

/** The tools' schemas refuse oversized fields first; this guards hosts that call the runtime directly. */
function checkFieldSizes(input: Partial<Record<(typeof FIELD_LIMITS)[number][0], unknown>>): void {
  for (const [field, limit] of FIELD_LIMITS) {
    const value = input[field];
    if (typeof value === "string" && value.length > limit) {
      throw new ToolError("too_large", `${field} has ${value.length} characters; at most ${limit} are allowed. Shorten it and retry.`, {
        details: { field, chars: value.length, limit },
      });
    }
  }
}

function checkListSize(state: TaskState): void {
  const chars = state.tasks.reduce((sum, task) => sum + taskTextChars(task), 0);
  if (chars > TASK_LIMITS.listChars) {
    throw new ToolError(
      "limit_reached",
      `This change would make the task list ${chars} characters long; at most ${TASK_LIMITS.listChars} are allowed over all tasks. Keep subjects and descriptions short (details belong in files), or shorten existing tasks with TaskUpdate.`,
      { details: { chars, limit: TASK_LIMITS.listChars } },
    );
  }
}

/** What the tools answer when the store factory rejects. */
function storeOpenFailure(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  // Nothing says this failure will heal, so the model is not told to retry it.
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError("unavailable", `The task store could not be opened (${message}). The task tools cannot be used until the host fixes this.`, {
    cause: error,
    details: { recoverable: false },
    recoverable: false,
  });
}
