/**
 * The check of the files one `rg --files` run listed in a workspace whose
 * listings are anchored (`capabilities.anchoredOpens`): ripgrep walks the
 * tree by path, so a subfolder the model swaps for a symlink to an outside
 * folder while it runs is followed and the outside folder's names listed.
 * Each kept name is found again in a listing of its folder through the
 * workspace's file system, which walks the path from `/` and refuses a
 * folder that leads out of the root.
 */
import { posix } from "node:path";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";

/** Folders listed at the same time. */
const PARALLEL_READS = 8;

/**
 * The names of `files` (relative to `directory`, `/`-separated) that a
 * listing of their folder through `fs` still shows as files; the others
 * (and those whose folder cannot be listed) are dropped.
 *
 * @example
 * const kept = await filesListedAgain(workspace.fs, "/repo", ["src/a.ts", "sub/x.txt"]);
 */
export async function filesListedAgain(fs: WorkspaceFileSystem, directory: string, files: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const byFolder = new Map<string, string[]>();
  for (const file of files) {
    const folder = posix.dirname(file);
    const names = byFolder.get(folder);
    if (names) names.push(file);
    else byFolder.set(folder, [file]);
  }
  const kept = new Set<string>();
  const folders = [...byFolder.keys()];
  const next = async (): Promise<void> => {
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      signal?.throwIfAborted();
      let present: Set<string>;
      try {
        const entries = await fs.readdir(folder === "." ? directory : posix.join(directory, folder));
        present = new Set(entries.filter((entry) => entry.type === "file").map((entry) => entry.name));
      } catch {
        continue; // a folder that cannot be listed now (refused, gone) keeps none of its names
      }
      for (const file of byFolder.get(folder) ?? []) if (present.has(posix.basename(file))) kept.add(file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, folders.length) }, next));
  return files.filter((file) => kept.has(file));
}
