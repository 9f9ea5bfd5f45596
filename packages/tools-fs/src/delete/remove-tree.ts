import { lstat, readdir, rmdir, unlink } from "node:fs/promises";
import { type AnchoredDirectory, anchorChild } from "@agent-tools/file-io/internal";

/** How often a directory that keeps getting new entries is emptied again before giving up. */
const MAX_EMPTY_ROUNDS = 5;

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * Removes the entry `name` of a held directory, and everything below it
 * when it is a directory, without ever following a symlink: each directory
 * is opened (with `O_NOFOLLOW`) inside the one held above it, its entries
 * are removed through that descriptor, and a symlink met on the way is
 * removed itself. A directory swapped for a symlink mid-walk therefore
 * cannot lead the removal outside the tree.
 */
export async function removeEntry(parent: AnchoredDirectory, name: string): Promise<void> {
  try {
    await unlink(parent.entry(name));
    return;
  } catch (error) {
    // EISDIR (Linux) / EPERM (macOS): a directory; anything else is an answer.
    const code = codeOf(error);
    if (code !== "EISDIR" && code !== "EPERM") throw error;
    const info = await lstat(parent.entry(name)).catch(() => undefined);
    if (!info?.isDirectory()) throw error;
  }
  await removeDirectory(parent, name);
}

async function removeDirectory(parent: AnchoredDirectory, name: string): Promise<void> {
  for (let round = 0; ; round += 1) {
    let directory: AnchoredDirectory;
    try {
      directory = anchorChild(parent, name);
    } catch (error) {
      // Became a symlink or a file meanwhile: remove that entry itself.
      if (codeOf(error) === "ELOOP" || codeOf(error) === "ENOTDIR") return removeEntry(parent, name);
      throw error;
    }
    try {
      for (const entry of await readdir(directory.self())) await removeEntry(directory, entry);
    } finally {
      directory.close();
    }
    try {
      await rmdir(parent.entry(name));
      return;
    } catch (error) {
      // Someone added an entry while it was being emptied: empty it again.
      if (codeOf(error) !== "ENOTEMPTY" && codeOf(error) !== "EEXIST") throw error;
      if (round + 1 >= MAX_EMPTY_ROUNDS) throw error;
    }
  }
}
