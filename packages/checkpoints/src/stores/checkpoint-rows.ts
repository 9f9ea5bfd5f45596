/** Rows of the checkpoint store and their mapping to entries. */
import type { CheckpointEntry } from "../domain/checkpoint-types.js";
import type { FileImageKind } from "../domain/file-image.js";
import type { NewPreImage } from "../ports/checkpoint-store.js";
import { CHECKPOINT_ENTRIES_TABLE } from "./checkpoint-migrations.js";

/** One row of {@link CHECKPOINT_ENTRIES_TABLE}. */
export interface CheckpointEntryRow {
  checkpoint_id: string;
  path: string;
  tool_name: string;
  call_id: string;
  pre_kind: string;
  pre_mode: number;
  pre_sha256: string;
  pre_link_target: string;
  pre_content: Uint8Array;
  post_kind: string | null;
  post_mode: number | null;
  post_sha256: string | null;
  post_link_target: string | null;
  recorded_at: number | string | bigint;
  rewound_at: number | string | bigint | null;
}

/** The store's tables, for Kysely. */
export interface CheckpointDatabase {
  [CHECKPOINT_ENTRIES_TABLE]: CheckpointEntryRow;
}

/** A bigint column as a number (pg returns int8 as a string). */
export function toNumber(value: number | string | bigint): number {
  return typeof value === "number" ? value : Number(value);
}

/** The row of a new pre-image (no post-image, not rewound). */
export function preImageToRow(image: NewPreImage): CheckpointEntryRow {
  return {
    checkpoint_id: image.checkpointId,
    path: image.path,
    tool_name: image.toolName,
    call_id: image.callId,
    pre_kind: image.pre.kind,
    pre_mode: image.pre.mode,
    pre_sha256: image.pre.sha256,
    pre_link_target: image.pre.linkTarget,
    pre_content: Buffer.from(image.pre.content.buffer, image.pre.content.byteOffset, image.pre.content.byteLength),
    post_kind: null,
    post_mode: null,
    post_sha256: null,
    post_link_target: null,
    recorded_at: image.recordedAt,
    rewound_at: null,
  };
}

/** The entry a row holds. */
export function rowToEntry(row: CheckpointEntryRow): CheckpointEntry {
  const content = row.pre_content;
  return {
    checkpointId: row.checkpoint_id,
    path: row.path,
    toolName: row.tool_name,
    callId: row.call_id,
    pre: {
      kind: row.pre_kind as FileImageKind,
      mode: row.pre_mode,
      sha256: row.pre_sha256,
      linkTarget: row.pre_link_target,
      content: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
    },
    ...(row.post_kind === null
      ? {}
      : {
          post: {
            kind: row.post_kind as FileImageKind,
            mode: row.post_mode ?? 0,
            sha256: row.post_sha256 ?? "",
            linkTarget: row.post_link_target ?? "",
          },
        }),
    recordedAt: toNumber(row.recorded_at),
    ...(row.rewound_at === null ? {} : { rewoundAt: toNumber(row.rewound_at) }),
  };
}
