import { ToolError, type ToolContext } from "@agent-tools/core";
import type { LockedFile } from "../file-engine/locked-file.js";
import type { FullTextSnapshot } from "../shared/file-state.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type TextWindow, type TextWindowOptions, readTextWindow } from "../shared/text-window.js";

/** Lines Write reads by itself when the model has not read a file in full. */
export const AUTO_READ_LINE_LIMIT = 5000;

/**
 * Reads a file in full on the model's behalf (up to
 * {@link AUTO_READ_LINE_LIMIT} lines and Read's 200 KB cap) and records the
 * snapshot; refuses with `requires_full_read` when that is not enough.
 */
export function primeFullSnapshot(file: LockedFile, context: ToolContext, environment: FsToolEnvironment): Promise<FullTextSnapshot> {
  return primeFullSnapshotFrom(file, context, environment, async (options) => {
    const { handle } = await file.open();
    try {
      return await readTextWindow(handle, options);
    } finally {
      await handle.close();
    }
  });
}

/** The file {@link primeFullSnapshotFrom} reads: its names for messages and its file-state key. */
export interface PrimedFile {
  readonly toolName: string;
  readonly key: string;
  readonly displayPath: string;
}

/**
 * {@link primeFullSnapshot} over any reader of a text window (the local
 * disk's opened file, or a workspace file read through its port).
 */
export async function primeFullSnapshotFrom(
  file: PrimedFile,
  context: ToolContext,
  environment: FsToolEnvironment,
  readWindow: (options: TextWindowOptions) => Promise<TextWindow>,
): Promise<FullTextSnapshot> {
  const { toolName, key, displayPath } = file;
  const known = environment.state.getLatest(key)?.totalLines;
  const requireRead = (lines: number, why: string) =>
    new ToolError(
      "requires_full_read",
      `${toolName} requires a full-file Read first: ${displayPath} has ${lines} lines, which ${why}. Call Read with path="${displayPath}" and limit=${lines}, then retry ${toolName} with the same path. To replace a file too large to read, Delete it and Write it anew.`,
      { details: { path: displayPath, totalLines: lines } },
    );
  if (known !== undefined && known > AUTO_READ_LINE_LIMIT) throw requireRead(known, `exceeds the automatic full-read limit (${AUTO_READ_LINE_LIMIT})`);
  const window = await readWindow({
    startLine: 1,
    limit: AUTO_READ_LINE_LIMIT,
    signal: context.signal,
    hasher: environment.fastIo.createHasher(),
    countAll: true,
  });
  if (window.binary) {
    throw new ToolError("binary_file", `${toolName} refused: ${displayPath} is a binary file. Delete it first if you mean to replace it with text.`);
  }
  // countAll: the window read the whole file, so its lines are counted.
  const totalLines = window.totalLines ?? Number.POSITIVE_INFINITY;
  if (window.numLines < totalLines || window.lineCut) {
    throw requireRead(
      totalLines,
      window.cappedBySize ? "is more than the 200 KB that one automatic read covers" : `exceeds the automatic full-read limit (${AUTO_READ_LINE_LIMIT})`,
    );
  }
  const snapshot: FullTextSnapshot = { ...window.version, totalLines };
  environment.state.recordRead(key, { kind: "text", rangeKey: `text:1:${window.numLines}:${totalLines}`, windowHash: window.windowHash, ...snapshot }, true);
  return snapshot;
}
