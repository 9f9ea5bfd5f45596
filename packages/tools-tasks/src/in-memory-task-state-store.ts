import type { TaskState } from "./task-state.js";
import type { SaveTaskStateOptions, StoredTaskState, TaskStateStore } from "./task-state-store.js";

/**
 * A {@link TaskStateStore} in a Map, for tests and hosts that keep task
 * lists only for the life of the process. Stores JSON text, so callers can
 * never mutate what is stored.
 *
 * @example
 * const bundle = createTaskToolBundle({ store: new InMemoryTaskStateStore() });
 */
export class InMemoryTaskStateStore implements TaskStateStore {
  readonly #entries = new Map<string, { json: string; version: number }>();

  /** {@inheritDoc TaskStateStore.load} */
  async load(conversationId: string): Promise<StoredTaskState | undefined> {
    const entry = this.#entries.get(conversationId);
    if (entry === undefined) return undefined;
    try {
      return { state: JSON.parse(entry.json) as unknown, version: entry.version };
    } catch {
      // Not JSON: hand the text on; the parser reports it as corrupt.
      return { state: entry.json, version: entry.version };
    }
  }

  /** {@inheritDoc TaskStateStore.save} */
  async save(conversationId: string, state: TaskState, options: SaveTaskStateOptions): Promise<boolean> {
    const current = this.#entries.get(conversationId);
    if (current?.version !== options.expectedVersion) return false;
    this.#entries.set(conversationId, { json: JSON.stringify(state), version: (current?.version ?? 0) + 1 });
    return true;
  }

  /** {@inheritDoc TaskStateStore.delete} */
  async delete(conversationId: string): Promise<void> {
    this.#entries.delete(conversationId);
  }

  /** Stores raw JSON text as it is, e.g. corrupt state in tests of the parser's callers. */
  async saveRaw(conversationId: string, json: string): Promise<void> {
    const current = this.#entries.get(conversationId);
    this.#entries.set(conversationId, { json, version: (current?.version ?? 0) + 1 });
  }
}
