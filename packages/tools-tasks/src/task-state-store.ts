import type { TaskState } from "./task-state.js";

/** What a {@link TaskStateStore} holds for one conversation. */
export interface StoredTaskState {
  /**
   * The state as stored, not yet trusted: check it with
   * `parseStoredTaskState` (stores never repair or reject it themselves).
   */
  readonly state: unknown;
  /** Increases on every save; the compare-and-set token of {@link TaskStateStore.save}. */
  readonly version: number;
}

/** Options of {@link TaskStateStore.save}. */
export interface SaveTaskStateOptions {
  /**
   * The version the caller loaded, or `undefined` when it found nothing.
   * The save happens only when the stored version still equals it.
   */
  readonly expectedVersion: number | undefined;
}

/**
 * Where task lists persist, one per conversation. The task tools load,
 * compute and save through it, and persist before they report, so the model
 * never sees a state that was not stored.
 *
 * Implementations: `KyselyTaskStateStore` (SQLite and PostgreSQL) and
 * `InMemoryTaskStateStore`; `runTaskStateStoreContract` (at
 * `@agent-tools/tools-tasks/testing`) checks any of them.
 */
export interface TaskStateStore {
  /** The stored state of a conversation, or `undefined` when none is stored. */
  load(conversationId: string): Promise<StoredTaskState | undefined>;
  /**
   * Stores `state` when the stored version equals `expectedVersion`
   * (`undefined` = nothing stored yet) and resolves `true`; otherwise writes
   * nothing and resolves `false` (another writer got there first). Rejects
   * only when the backend fails.
   */
  save(conversationId: string, state: TaskState, options: SaveTaskStateOptions): Promise<boolean>;
  /** Removes a conversation's state; a missing one is fine. */
  delete(conversationId: string): Promise<void>;
  /** Releases what the store itself opened (never a storage it was given). */
  close?(): Promise<void>;
}
