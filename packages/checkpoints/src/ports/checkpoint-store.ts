/**
 * Where a checkpoint's records live. Implementations: `InMemoryCheckpointStore`
 * (tests, one process) and `KyselyCheckpointStore` (SQLite or PostgreSQL);
 * `runCheckpointStoreContract` of `@agent-tools/checkpoints/testing` checks one.
 */
import type { CheckpointEntry, CheckpointSummary } from "../domain/checkpoint-types.js";
import type { FileImage, FileImageSummary } from "../domain/file-image.js";

/** A pre-image to record (see {@link CheckpointStore.putPreImage}). */
export interface NewPreImage {
  readonly checkpointId: string;
  readonly path: string;
  readonly toolName: string;
  readonly callId: string;
  readonly pre: FileImage;
  /** ms since the epoch. */
  readonly recordedAt: number;
}

/** The records of checkpoints. Every method is safe to call concurrently, also from several processes on one database. */
export interface CheckpointStore {
  /**
   * Records the pre-image of `(checkpointId, path)` unless one is already
   * there, atomically: of concurrent calls for one pair exactly one wins and
   * the others leave it untouched. An entry already rewound is replaced (with
   * no post-image): the path is changed again after its rewind, which starts
   * its record afresh. Resolves true when this call wrote the entry.
   */
  putPreImage(image: NewPreImage): Promise<boolean>;
  /**
   * Sets the post-image of an entry (the last change's state wins). Resolves
   * false, changing nothing, when the entry does not exist.
   */
  setPostImage(checkpointId: string, path: string, post: FileImageSummary): Promise<boolean>;
  /** True when `(checkpointId, path)` holds a pre-image not yet rewound. */
  hasPendingPreImage(checkpointId: string, path: string): Promise<boolean>;
  /** The entries of a checkpoint, by path (byte order); empty for an unknown id. */
  listEntries(checkpointId: string): Promise<CheckpointEntry[]>;
  /** Every checkpoint with at least one entry, most recently recorded first. */
  listCheckpoints(): Promise<CheckpointSummary[]>;
  /** Marks the given paths of a checkpoint rewound at `at` (ms); unknown paths are ignored. */
  markRewound(checkpointId: string, paths: readonly string[], at: number): Promise<void>;
  /** Removes a checkpoint's entries; resolves how many were removed. */
  deleteCheckpoint(checkpointId: string): Promise<number>;
}
