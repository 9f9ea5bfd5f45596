import type { Storage, StorageMigration } from "@agent-tools/storage";
import type { Kysely } from "kysely";
import type { TaskState } from "./task-state.js";
import type { SaveTaskStateOptions, StoredTaskState, TaskStateStore } from "./task-state-store.js";

/** The storage namespace (migration history) of this package. */
export const TASK_STORAGE_NAMESPACE = "tools-tasks";

/** The table holding one task list per conversation. */
export const TASK_STATE_TABLE = "agent_tools_task_state";

interface TaskStateTable {
  conversation_id: string;
  version: number;
  run_id: string;
  state_json: string;
  updated_at: string;
}

interface TaskDatabase {
  [TASK_STATE_TABLE]: TaskStateTable;
}

/** The schema steps of the task store, in order. */
export const TASK_STORAGE_MIGRATIONS: readonly StorageMigration[] = [
  {
    name: "0001-create-task-state",
    async up(db) {
      await db.schema
        .createTable(TASK_STATE_TABLE)
        .addColumn("conversation_id", "text", (column) => column.primaryKey())
        .addColumn("version", "integer", (column) => column.notNull())
        .addColumn("run_id", "text", (column) => column.notNull())
        .addColumn("state_json", "text", (column) => column.notNull())
        .addColumn("updated_at", "text", (column) => column.notNull())
        .execute();
    },
  },
];

/**
 * A {@link TaskStateStore} on a core `Storage`: the embedded SQLite file or
 * PostgreSQL, same code. Saves are compare-and-set on a version column, so
 * several processes sharing one database never overwrite each other's
 * newer state. The store does not own the storage: close the storage
 * yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const store = await KyselyTaskStateStore.open(storage);
 * const bundle = createTaskToolBundle({ store });
 */
export class KyselyTaskStateStore implements TaskStateStore {
  readonly #db: Kysely<TaskDatabase>;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<TaskDatabase>;
  }

  /** Applies the package's migrations, then returns the store. */
  static async open(storage: Storage): Promise<KyselyTaskStateStore> {
    await storage.migrate(TASK_STORAGE_NAMESPACE, TASK_STORAGE_MIGRATIONS);
    return new KyselyTaskStateStore(storage);
  }

  /** {@inheritDoc TaskStateStore.load} */
  async load(conversationId: string): Promise<StoredTaskState | undefined> {
    const row = await this.#db.selectFrom(TASK_STATE_TABLE).select(["version", "state_json"]).where("conversation_id", "=", conversationId).executeTakeFirst();
    if (row === undefined) return undefined;
    let state: unknown = row.state_json;
    try {
      state = JSON.parse(row.state_json);
    } catch {
      // Not JSON: hand the text on; the parser reports it as corrupt.
    }
    return { state, version: Number(row.version) };
  }

  /** {@inheritDoc TaskStateStore.save} */
  async save(conversationId: string, state: TaskState, options: SaveTaskStateOptions): Promise<boolean> {
    const values = { run_id: state.runId, state_json: JSON.stringify(state), updated_at: new Date().toISOString() };
    if (options.expectedVersion === undefined) {
      const result = await this.#db
        .insertInto(TASK_STATE_TABLE)
        .values({ conversation_id: conversationId, version: 1, ...values })
        .onConflict((conflict) => conflict.column("conversation_id").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    }
    const result = await this.#db
      .updateTable(TASK_STATE_TABLE)
      .set({ version: options.expectedVersion + 1, ...values })
      .where("conversation_id", "=", conversationId)
      .where("version", "=", options.expectedVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** {@inheritDoc TaskStateStore.delete} */
  async delete(conversationId: string): Promise<void> {
    await this.#db.deleteFrom(TASK_STATE_TABLE).where("conversation_id", "=", conversationId).execute();
  }
}
