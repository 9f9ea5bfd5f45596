import type { Stats } from "node:fs";
import { ToolError } from "@agent-tools/core";
import { contentHash } from "./content-hash.js";
import type { FileVersion } from "./file-state.js";

/**
 * Refuses a write when the file changed since the version the model saw.
 * An unchanged mtime and size is trusted without hashing; otherwise the
 * FNV-1a 64 hash of the current bytes decides (a touched but unchanged file
 * is not stale).
 *
 * @param readCurrent returns the current bytes (only called when needed)
 */
export async function assertNotStale(
  toolName: string,
  displayPath: string,
  expected: FileVersion,
  current: Pick<Stats, "mtimeMs" | "size">,
  readCurrent: () => Promise<Uint8Array> | Uint8Array,
): Promise<void> {
  if (current.mtimeMs === expected.mtimeMs && current.size === expected.size) return;
  if (current.size === expected.size && expected.contentHash !== "") {
    if (contentHash(await readCurrent()) === expected.contentHash) return;
  }
  throw new ToolError(
    "stale_file",
    `${toolName} refused: ${displayPath} changed on disk after your last Read (size ${expected.size} -> ${current.size} bytes). Read it again to see the current content, then retry ${toolName}.`,
    { details: { path: displayPath, expectedMtimeMs: expected.mtimeMs, actualMtimeMs: current.mtimeMs } },
  );
}
