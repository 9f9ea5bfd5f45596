/** The records of a checkpoint and the report of its rewind. */
import type { FileImage, FileImageSummary } from "./file-image.js";

/** One path changed inside a checkpoint: the state before its first change there, and the state its last change left. */
export interface CheckpointEntry {
  /** The checkpoint (host-chosen id, e.g. `<conversation>:<turn>`). */
  readonly checkpointId: string;
  /** Canonical absolute path. */
  readonly path: string;
  /** The tool of the first change (`Write`, `Edit`, `Delete`, ...). */
  readonly toolName: string;
  /** The call of the first change. */
  readonly callId: string;
  /** The state before the checkpoint's first change of the path. */
  readonly pre: FileImage;
  /** The state the checkpoint's last change left; absent when no change finished (e.g. the process died mid-change). */
  readonly post?: FileImageSummary;
  /** When the pre-image was recorded (ms since the epoch). */
  readonly recordedAt: number;
  /** When a rewind restored the path (ms since the epoch); absent until then. */
  readonly rewoundAt?: number;
}

/** A checkpoint as listed: how many paths it holds and how many of them a rewind already restored. */
export interface CheckpointSummary {
  readonly checkpointId: string;
  /** Paths recorded. */
  readonly files: number;
  /** Paths a rewind restored or removed. */
  readonly rewound: number;
  /** The first and last pre-image recording (ms since the epoch). */
  readonly firstRecordedAt: number;
  readonly lastRecordedAt: number;
}

/** Why a path was left alone by a rewind. */
export interface RewindConflict {
  readonly path: string;
  /** What differs, for a person: e.g. "changed after the checkpoint's last change: expected ..., found ...". */
  readonly reason: string;
}

/** What a rewind did, path by path (paths in each list sorted). */
export interface RewindReport {
  readonly checkpointId: string;
  /** Paths given back their previous content, mode, link target or directory. */
  readonly restored: readonly string[];
  /** Paths created inside the checkpoint and removed. */
  readonly removed: readonly string[];
  /** Paths changed by someone else since the checkpoint's change: left as they are (unless `force`). */
  readonly conflicts: readonly RewindConflict[];
  /** Paths already in their previous state (or rewound before). */
  readonly unchanged: readonly string[];
}
