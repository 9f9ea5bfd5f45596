/**
 * @agent-tools/checkpoints: file checkpoints for agent tools. Write, Edit and
 * Delete record each file's state before their change (exact bytes and
 * permission bits, a symlink's target, a directory, or absence) and the
 * state they left; `rewindCheckpoint` puts the old states back atomically per
 * file and reports files changed by someone else since as conflicts.
 *
 * @packageDocumentation
 */
export type { CheckpointSummary, RewindConflict, RewindReport } from "./domain/checkpoint-types.js";
export type { CheckpointStore } from "./ports/checkpoint-store.js";
export { InMemoryCheckpointStore } from "./ports/in-memory-checkpoint-store.js";
export { KyselyCheckpointStore } from "./stores/kysely-checkpoint-store.js";
export { createFileCheckpoints } from "./runtime/create-file-checkpoints.js";
export type { FileCheckpoints, FileCheckpointsOptions, RewindOptions } from "./runtime/create-file-checkpoints.js";
