import type { CheckpointEntry, CheckpointSummary } from "../domain/checkpoint-types.js";
import type { FileImageSummary } from "../domain/file-image.js";
import { comparePaths } from "../domain/rewind-plan.js";
import type { CheckpointStore, NewPreImage } from "./checkpoint-store.js";

/**
 * A {@link CheckpointStore} in memory, for tests and single-process hosts
 * that do not need checkpoints to outlive the process. Bytes are copied in
 * and out, so callers cannot change what it holds.
 *
 * @example
 * const checkpoints = createFileCheckpoints({ store: new InMemoryCheckpointStore() });
 */
export class InMemoryCheckpointStore implements CheckpointStore {
  readonly #checkpoints = new Map<string, Map<string, CheckpointEntry>>();

  /** {@inheritDoc CheckpointStore.putPreImage} */
  async putPreImage(image: NewPreImage): Promise<boolean> {
    let entries = this.#checkpoints.get(image.checkpointId);
    if (entries === undefined) {
      entries = new Map();
      this.#checkpoints.set(image.checkpointId, entries);
    }
    const existing = entries.get(image.path);
    if (existing !== undefined && existing.rewoundAt === undefined) return false;
    entries.set(image.path, {
      checkpointId: image.checkpointId,
      path: image.path,
      toolName: image.toolName,
      callId: image.callId,
      pre: { ...image.pre, content: Uint8Array.from(image.pre.content) },
      recordedAt: image.recordedAt,
    });
    return true;
  }

  /** {@inheritDoc CheckpointStore.setPostImage} */
  async setPostImage(checkpointId: string, path: string, post: FileImageSummary): Promise<boolean> {
    const entries = this.#checkpoints.get(checkpointId);
    const existing = entries?.get(path);
    if (entries === undefined || existing === undefined) return false;
    entries.set(path, { ...existing, post: { kind: post.kind, mode: post.mode, sha256: post.sha256, linkTarget: post.linkTarget } });
    return true;
  }

  /** {@inheritDoc CheckpointStore.hasPendingPreImage} */
  async hasPendingPreImage(checkpointId: string, path: string): Promise<boolean> {
    const entry = this.#checkpoints.get(checkpointId)?.get(path);
    return entry !== undefined && entry.rewoundAt === undefined;
  }

  /** {@inheritDoc CheckpointStore.listEntries} */
  async listEntries(checkpointId: string): Promise<CheckpointEntry[]> {
    const entries = [...(this.#checkpoints.get(checkpointId)?.values() ?? [])];
    entries.sort((left, right) => comparePaths(left.path, right.path));
    return entries.map((entry) => ({ ...entry, pre: { ...entry.pre, content: Uint8Array.from(entry.pre.content) } }));
  }

  /** {@inheritDoc CheckpointStore.listCheckpoints} */
  async listCheckpoints(): Promise<CheckpointSummary[]> {
    const out: CheckpointSummary[] = [];
    for (const [checkpointId, entries] of this.#checkpoints) {
      if (entries.size === 0) continue;
      const values = [...entries.values()];
      out.push({
        checkpointId,
        files: values.length,
        rewound: values.filter((entry) => entry.rewoundAt !== undefined).length,
        firstRecordedAt: Math.min(...values.map((entry) => entry.recordedAt)),
        lastRecordedAt: Math.max(...values.map((entry) => entry.recordedAt)),
      });
    }
    return out.sort((left, right) => right.lastRecordedAt - left.lastRecordedAt || comparePaths(left.checkpointId, right.checkpointId));
  }

  /** {@inheritDoc CheckpointStore.markRewound} */
  async markRewound(checkpointId: string, paths: readonly string[], at: number): Promise<void> {
    const entries = this.#checkpoints.get(checkpointId);
    if (entries === undefined) return;
    for (const path of paths) {
      const existing = entries.get(path);
      if (existing !== undefined) entries.set(path, { ...existing, rewoundAt: at });
    }
  }

  /** {@inheritDoc CheckpointStore.deleteCheckpoint} */
  async deleteCheckpoint(checkpointId: string): Promise<number> {
    const count = this.#checkpoints.get(checkpointId)?.size ?? 0;
    this.#checkpoints.delete(checkpointId);
    return count;
  }
}
