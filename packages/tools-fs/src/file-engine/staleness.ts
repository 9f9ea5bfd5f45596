import type { Stats } from "node:fs";
import { ToolError } from "@agent-tools/core";
import { contentHash } from "../shared/content-hash.js";
import type { PendingHash } from "../fast-io/hash-worker.js";
import type { FileVersion } from "../shared/file-state.js";

/** What {@link assertNotStale} compares. */
export interface StalenessCheck {
  /** Tool name for the message. */
  toolName: string;
  /** The path as the model wrote it. */
  displayPath: string;
  /** The version the model saw. */
  expected: FileVersion;
  /** The file now. */
  current: Pick<Stats, "mtimeMs" | "size" | "ctimeMs" | "ino">;
  /** Returns the current bytes (only called when needed). */
  readCurrent: () => Promise<Uint8Array> | Uint8Array;
  /** The expected version's hash while it is being computed. */
  pendingHash?: PendingHash;
  /** FNV-1a 64 of the current bytes (the bundle's `fastIo.contentHash`); default {@link contentHash}. */
  hash?: (bytes: Uint8Array) => string;
}

/**
 * Refuses a write when the file changed since the version the model saw.
 * An unchanged mtime, size, ctime and inode is trusted without hashing
 * (ctime, which user space cannot set back, catches a change that restored
 * the mtime; a version recorded without ctime or inode skips that part);
 * otherwise the
 * FNV-1a 64 hash of the current bytes decides (a touched but unchanged file
 * is not stale). When the expected version's hash is still being computed
 * off the main thread (`pendingHash`), that hash is awaited rather than the
 * file called stale.
 */
export async function assertNotStale(check: StalenessCheck): Promise<void> {
  const { toolName, displayPath, expected, current, readCurrent, pendingHash, hash = contentHash } = check;
  if (
    current.mtimeMs === expected.mtimeMs &&
    current.size === expected.size &&
    (expected.ctimeMs === undefined || expected.ctimeMs === current.ctimeMs) &&
    (expected.ino === undefined || expected.ino === current.ino)
  ) {
    return;
  }
  if (current.size === expected.size) {
    let expectedHash = expected.contentHash;
    if (expectedHash === "" && pendingHash) expectedHash = await pendingHash.wait().catch(() => "");
    if (expectedHash !== "" && hash(await readCurrent()) === expectedHash) return;
  }
  throw new ToolError(
    "stale_file",
    `${toolName} refused: ${displayPath} changed on disk after your last Read (size ${expected.size} -> ${current.size} bytes). Read it again to see the current content, then retry ${toolName}.`,
    { details: { path: displayPath, expectedMtimeMs: expected.mtimeMs, actualMtimeMs: current.mtimeMs } },
  );
}
