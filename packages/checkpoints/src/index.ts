/**
 * @agent-tools/checkpoints: file checkpoints for agent tools. Write, Edit and
 * Delete record each file's state before their change (exact bytes and
 * permission bits, a symlink's target, a directory, or absence) and the
 * state they left; `rewindCheckpoint` puts the old states back atomically per
 * file and reports files changed by someone else since as conflicts.
 *
 * @packageDocumentation
 */
export type { CheckpointEntry, CheckpointSummary, RewindConflict, RewindReport } from "./domain/checkpoint-types.js";
export { FILE_IMAGE_KINDS, describeImage, sameImage, summarize } from "./domain/file-image.js";
export type { FileImage, FileImageKind, FileImageSummary } from "./domain/file-image.js";
export { comparePaths, planRewind } from "./domain/rewind-plan.js";
export type { RewindAction, RewindPlanOptions } from "./domain/rewind-plan.js";
export type { CheckpointStore, NewPreImage } from "./ports/checkpoint-store.js";
export { InMemoryCheckpointStore } from "./ports/in-memory-checkpoint-store.js";
export { CHECKPOINTS_STORAGE_MIGRATIONS, CHECKPOINTS_STORAGE_NAMESPACE, CHECKPOINT_ENTRIES_TABLE } from "./stores/checkpoint-migrations.js";
export { KyselyCheckpointStore } from "./stores/kysely-checkpoint-store.js";
export { createFileCheckpoints } from "./runtime/create-file-checkpoints.js";
export type { FileCheckpoints, FileCheckpointsOptions, RewindOptions, RewindProgress } from "./runtime/create-file-checkpoints.js";
export { ABSENT_IMAGE, readFileImage, sha256Hex } from "./runtime/read-file-image.js";
