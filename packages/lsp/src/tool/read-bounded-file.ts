/**
 * Reads of the files a language server names (result locations, documents
 * to open): never more than `limit + 1` bytes, so a huge file in the
 * workspace costs no more than the cap, and locally never through a symlink
 * in the last component (opened `O_NOFOLLOW`; the path was checked by the
 * path policy just before, and a link swapped in since is refused).
 */
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";

/**
 * Reads at most `limit + 1` bytes of a local regular file, refusing a
 * symlink as the last component; callers compare the length with `limit`.
 *
 * @example
 * const bytes = await readLocalBounded("/repo/src/a.ts", 8 * 1024 * 1024);
 */
export async function readLocalBounded(file: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error(`${file} is not a regular file.`);
    const length = Math.min(stats.size, limit + 1);
    const buffer = Buffer.alloc(length);
    let filled = 0;
    while (filled < length) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, filled, length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * Reads at most `limit + 1` bytes of a file of a non-local workspace.
 *
 * @example
 * const bytes = await readWorkspaceBounded(workspace.fs, "/srv/repo/a.ts", 8 * 1024 * 1024);
 */
export function readWorkspaceBounded(fs: WorkspaceFileSystem, file: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
  return fs.readFile(file, { end: limit + 1, ...(signal ? { signal } : {}) });
}
