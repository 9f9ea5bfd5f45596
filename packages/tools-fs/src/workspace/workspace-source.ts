/**
 * A workspace file as Read's {@link ReadSource}: its bytes come through the
 * workspace's file system in ranged reads, so the same window, line
 * numbering, hash and format readers serve the local disk and a workspace.
 */
import type { Workspace, WorkspaceStats } from "@agent-tools/core/workspace";
import type { ReadSource } from "../read/read-formats.js";
import type { FileVersion } from "../shared/file-state.js";
import type { TextWindowHandle } from "../shared/text-window.js";

/** The version a workspace stat shows (a workspace file has no ctime or inode: its hash decides). */
export function workspaceVersion(stats: WorkspaceStats, contentHash: string): FileVersion {
  return { mtimeMs: stats.mtimeMs, size: stats.size, contentHash };
}

/**
 * Reads a workspace file sequentially, in the chunks the caller asks for
 * (one ranged `readFile` each), as {@link readTextWindow} reads a handle.
 * `stats` is the file's stat taken before the first read.
 */
export function workspaceReadHandle(workspace: Workspace, path: string, stats: WorkspaceStats, signal?: AbortSignal): TextWindowHandle {
  let position = 0;
  return {
    stat: async () => ({ mtimeMs: stats.mtimeMs, size: stats.size }),
    read: async (buffer, offset, length) => {
      if (position >= stats.size) return { bytesRead: 0 };
      const bytes = await workspace.fs.readFile(path, { start: position, end: Math.min(stats.size, position + length), signal });
      bytes.copy(buffer, offset, 0, Math.min(bytes.length, length));
      position += bytes.length;
      return { bytesRead: Math.min(bytes.length, length) };
    },
  };
}

/** The whole bytes of a workspace file and the version they are (stat after the read, size, FNV-1a 64). */
export async function readWorkspaceVersioned(
  workspace: Workspace,
  path: string,
  hash: (bytes: Uint8Array) => string,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; version: FileVersion }> {
  const bytes = await workspace.fs.readFile(path, { signal });
  const after = await workspace.fs.stat(path);
  return { bytes, version: { mtimeMs: after.mtimeMs, size: bytes.length, contentHash: hash(bytes) } };
}

/** Read's source over a workspace file (`key`: its canonical path). */
export function workspaceReadSource(
  workspace: Workspace,
  file: { key: string; stats: WorkspaceStats; hash: (bytes: Uint8Array) => string; signal?: AbortSignal },
): ReadSource {
  const { key, stats, hash, signal } = file;
  return {
    handle: workspaceReadHandle(workspace, key, stats, signal),
    key,
    path: key,
    hash,
    whole: () => readWorkspaceVersioned(workspace, key, hash, signal),
  };
}
