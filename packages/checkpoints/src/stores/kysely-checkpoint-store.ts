import type { Storage } from "@agent-tools/storage";
import { type Kysely, sql } from "kysely";
import type { CheckpointEntry, CheckpointSummary } from "../domain/checkpoint-types.js";
import type { FileImageSummary } from "../domain/file-image.js";
import { comparePaths } from "../domain/rewind-plan.js";
import type { CheckpointStore, NewPreImage } from "../ports/checkpoint-store.js";
import { CHECKPOINTS_STORAGE_MIGRATIONS, CHECKPOINTS_STORAGE_NAMESPACE, CHECKPOINT_ENTRIES_TABLE } from "./checkpoint-migrations.js";
import { type CheckpointDatabase, preImageToRow, rowToEntry, toNumber } from "./checkpoint-rows.js";

/** Paths marked rewound per statement (keeps the statement under every driver's parameter limit). */
const MARK_BATCH = 200;

/**
 * A {@link CheckpointStore} on a `Storage`: the embedded SQLite file or
 * PostgreSQL, same code. One row per (checkpoint, path), the pre-image's
 * bytes in a `blob` / `bytea` column. "Once per pair" is the primary key:
 * the pre-image is inserted with `on conflict do update ... where rewound_at
 * is not null`, so of racing writers exactly one inserts it, and only an
 * entry already rewound is replaced. The store does not own the storage:
 * close the storage yourself.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir });
 * const checkpoints = createFileCheckpoints({ store: await KyselyCheckpointStore.open(storage) });
 */
export class KyselyCheckpointStore implements CheckpointStore {
  readonly #db: Kysely<CheckpointDatabase>;

  private constructor(storage: Storage) {
    this.#db = storage.db as Kysely<CheckpointDatabase>;
  }

  /** Applies the package's migrations (namespace `checkpoints`), then returns the store. */
  static async open(storage: Storage): Promise<KyselyCheckpointStore> {
    await storage.migrate(CHECKPOINTS_STORAGE_NAMESPACE, CHECKPOINTS_STORAGE_MIGRATIONS);
    return new KyselyCheckpointStore(storage);
  }

  /** {@inheritDoc CheckpointStore.putPreImage} */
  async putPreImage(image: NewPreImage): Promise<boolean> {
    const row = preImageToRow(image);
    const { checkpoint_id: _checkpoint, path: _path, ...replacement } = row;
    const written = await this.#db
      .insertInto(CHECKPOINT_ENTRIES_TABLE)
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(["checkpoint_id", "path"]).doUpdateSet(replacement).where(`${CHECKPOINT_ENTRIES_TABLE}.rewound_at`, "is not", null),
      )
      .returning("path")
      .executeTakeFirst();
    return written !== undefined;
  }

  /** {@inheritDoc CheckpointStore.setPostImage} */
  async setPostImage(checkpointId: string, path: string, post: FileImageSummary): Promise<boolean> {
    const result = await this.#db
      .updateTable(CHECKPOINT_ENTRIES_TABLE)
      .set({ post_kind: post.kind, post_mode: post.mode, post_sha256: post.sha256, post_link_target: post.linkTarget })
      .where("checkpoint_id", "=", checkpointId)
      .where("path", "=", path)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** {@inheritDoc CheckpointStore.hasPendingPreImage} */
  async hasPendingPreImage(checkpointId: string, path: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom(CHECKPOINT_ENTRIES_TABLE)
      .select("path")
      .where("checkpoint_id", "=", checkpointId)
      .where("path", "=", path)
      .where("rewound_at", "is", null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** {@inheritDoc CheckpointStore.listEntries} */
  async listEntries(checkpointId: string): Promise<CheckpointEntry[]> {
    const rows = await this.#db.selectFrom(CHECKPOINT_ENTRIES_TABLE).selectAll().where("checkpoint_id", "=", checkpointId).execute();
    // Sorted here, in byte order: PostgreSQL's collation may be a locale's.
    return rows.map(rowToEntry).sort((left, right) => comparePaths(left.path, right.path));
  }

  /** {@inheritDoc CheckpointStore.listCheckpoints} */
  async listCheckpoints(): Promise<CheckpointSummary[]> {
    const rows = await this.#db
      .selectFrom(CHECKPOINT_ENTRIES_TABLE)
      .select([
        "checkpoint_id",
        sql<number | string>`count(*)`.as("files"),
        sql<number | string>`count(rewound_at)`.as("rewound"),
        sql<number | string>`min(recorded_at)`.as("first_recorded_at"),
        sql<number | string>`max(recorded_at)`.as("last_recorded_at"),
      ])
      .groupBy("checkpoint_id")
      .execute();
    return rows
      .map((row) => ({
        checkpointId: row.checkpoint_id,
        files: toNumber(row.files),
        rewound: toNumber(row.rewound),
        firstRecordedAt: toNumber(row.first_recorded_at),
        lastRecordedAt: toNumber(row.last_recorded_at),
      }))
      .sort((left, right) => right.lastRecordedAt - left.lastRecordedAt || comparePaths(left.checkpointId, right.checkpointId));
  }

  /** {@inheritDoc CheckpointStore.markRewound} */
  async markRewound(checkpointId: string, paths: readonly string[], at: number): Promise<void> {
    for (let start = 0; start < paths.length; start += MARK_BATCH) {
      const batch = paths.slice(start, start + MARK_BATCH);
      await this.#db
        .updateTable(CHECKPOINT_ENTRIES_TABLE)
        .set({ rewound_at: at })
        .where("checkpoint_id", "=", checkpointId)
        .where("path", "in", batch)
        .execute();
    }
  }

  /** {@inheritDoc CheckpointStore.deleteCheckpoint} */
  async deleteCheckpoint(checkpointId: string): Promise<number> {
    const result = await this.#db.deleteFrom(CHECKPOINT_ENTRIES_TABLE).where("checkpoint_id", "=", checkpointId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
