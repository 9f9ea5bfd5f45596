import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { isToolSidecarName } from "@agent-tools/file-io/internal";

/**
 * The directory at `canonicalPath` and everything below it (symlinks are
 * listed, never followed), parents before children: the paths a Delete of
 * the directory records in a checkpoint. The file tools' own lock and
 * temporary files are left out. `entryPath` reaches the same directory
 * through the held parent directory. Entry kinds come from the directory
 * listing itself, so no entry is stat'ed.
 */
export async function listTree(canonicalPath: string, entryPath: string): Promise<string[]> {
  const out = [canonicalPath];
  const walk = async (canonical: string, reach: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(reach, { withFileTypes: true });
    } catch {
      return; // removed meanwhile: nothing below it to record
    }
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    for (const entry of entries) {
      if (isToolSidecarName(entry.name)) continue;
      const child = path.join(canonical, entry.name);
      out.push(child);
      if (entry.isDirectory()) await walk(child, path.join(reach, entry.name));
    }
  };
  await walk(canonicalPath, entryPath);
  return out;
}
