/**
 * The rewind plan of a checkpoint, pure: for each recorded path, compare what
 * is there now with what the checkpoint recorded.
 *
 * - Now equal to the pre-image (or rewound before): nothing to do (`unchanged`).
 *   This makes a rewind idempotent: one interrupted half-way is simply run again.
 * - Now equal to the post-image (the state the checkpoint's last change left):
 *   put the pre-image back (`restore`), or remove the path when it did not
 *   exist before (`remove`).
 * - Anything else, including a path whose change never finished (no
 *   post-image) and that no longer holds its pre-image: someone changed it
 *   since; it is a `conflict` and left alone, unless `force` is set, which
 *   restores or removes it anyway.
 *
 * Order: removals deepest path first (a created file before the directory
 * around it), then restorations shallowest first (a deleted directory before
 * the files inside it).
 */
import type { CheckpointEntry } from "./checkpoint-types.js";
import { type FileImageSummary, describeImage, sameImage } from "./file-image.js";

/** One step of a rewind. */
export type RewindAction =
  | { readonly type: "restore"; readonly entry: CheckpointEntry; readonly forced: boolean }
  | { readonly type: "remove"; readonly entry: CheckpointEntry; readonly forced: boolean }
  | { readonly type: "unchanged"; readonly entry: CheckpointEntry }
  | { readonly type: "conflict"; readonly entry: CheckpointEntry; readonly reason: string };

/** Options of {@link planRewind}. */
export interface RewindPlanOptions {
  /** Restore (or remove) conflicting paths too, overwriting the outside change. Default false. */
  readonly force?: boolean;
}

/** Why `current` is a conflict for `entry`. */
function conflictReason(entry: CheckpointEntry, current: FileImageSummary): string {
  if (entry.post === undefined) {
    return `the checkpoint's change of this path never finished, and it no longer holds its previous state: found ${describeImage(current)}, expected ${describeImage(entry.pre)}`;
  }
  return `changed after the checkpoint's last change: found ${describeImage(current)}, expected ${describeImage(entry.post)}`;
}

/**
 * Plans the rewind of `entries` given what each path holds now.
 *
 * @example
 * const actions = planRewind(entries, (path) => currentStates.get(path)!, { force: false });
 */
export function planRewind(entries: readonly CheckpointEntry[], current: (path: string) => FileImageSummary, options: RewindPlanOptions = {}): RewindAction[] {
  const removals: RewindAction[] = [];
  const restorations: RewindAction[] = [];
  const others: RewindAction[] = [];
  for (const entry of entries) {
    if (entry.rewoundAt !== undefined) {
      others.push({ type: "unchanged", entry });
      continue;
    }
    const now = current(entry.path);
    if (sameImage(now, entry.pre)) {
      others.push({ type: "unchanged", entry });
      continue;
    }
    const matchesPost = entry.post !== undefined && sameImage(now, entry.post);
    if (!matchesPost && options.force !== true) {
      others.push({ type: "conflict", entry, reason: conflictReason(entry, now) });
      continue;
    }
    const forced = !matchesPost;
    if (entry.pre.kind === "absent") removals.push({ type: "remove", entry, forced });
    else restorations.push({ type: "restore", entry, forced });
  }
  removals.sort((left, right) => comparePaths(right.entry.path, left.entry.path));
  restorations.sort((left, right) => comparePaths(left.entry.path, right.entry.path));
  others.sort((left, right) => comparePaths(left.entry.path, right.entry.path));
  return [...removals, ...restorations, ...others];
}

/** Byte order of paths (a parent sorts before everything below it). */
export function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
