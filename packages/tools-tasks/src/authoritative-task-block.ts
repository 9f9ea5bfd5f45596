import type { TaskRun, TaskRuntime } from "./task-runtime.js";
import type { TaskState } from "./task-state.js";

/** The heading of the block a host puts in the system prompt after compaction. */
export const AUTHORITATIVE_TASK_BLOCK_HEADING = "## Authoritative Task Runtime State";

/**
 * Renders the task list as the system-prompt block that survives
 * compaction: a heading, an instruction not to recreate, renumber, reorder
 * or replace the tasks, and `<task_list>{json}</task_list>`. Returns `""`
 * when there is no task, so nothing is injected.
 *
 * @example
 * const block = renderAuthoritativeTaskBlock(await tasks.getState(run));
 */
export function renderAuthoritativeTaskBlock(state: TaskState | undefined): string {
  if (state === undefined || state.tasks.length === 0) return "";
  return [
    AUTHORITATIVE_TASK_BLOCK_HEADING,
    "This task list is the persisted state of the current run and is authoritative. Continue from it. " +
      "Do not recreate, renumber, reorder, or replace these tasks; change them only with TaskUpdate, using their ids, and add new work with TaskCreate.",
    `<task_list>${JSON.stringify(state)}</task_list>`,
  ].join("\n");
}

/** A block frozen for one compaction epoch; see {@link createFrozenTaskBlock}. */
export interface FrozenTaskBlock {
  /** The block as of the last {@link FrozenTaskBlock.refresh}; `""` before the first. */
  readonly text: string;
  /** Recomputes the block from the stored list. Call at run start and at compaction boundaries only. */
  refresh(run: TaskRun): Promise<string>;
}

/**
 * Keeps the authoritative block byte-stable between compaction boundaries:
 * TaskCreate / TaskUpdate change the stored list, never `text`, so the
 * system prompt (and its provider cache) stays the same until the host
 * calls `refresh` at the next run start or compaction.
 *
 * @example
 * const block = createFrozenTaskBlock(bundle.runtime);
 * await block.refresh(run); // run start
 * systemPrompt = base + (block.text ? `\n\n${block.text}` : "");
 */
export function createFrozenTaskBlock(runtime: Pick<TaskRuntime, "getState">): FrozenTaskBlock {
  let text = "";
  return {
    get text() {
      return text;
    },
    async refresh(run) {
      text = renderAuthoritativeTaskBlock(await runtime.getState(run));
      return text;
    },
  };
}
