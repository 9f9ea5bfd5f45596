/**
 * Reads one file of an installed skill without following a symlink and
 * without opening anything by a name checked earlier: the skill's files may
 * be changed by a confined command (a writable skill is bound into the
 * sandbox), which can flip a file for a symlink, a FIFO or a device between
 * a check and an open.
 *
 * The base folder is resolved once; every folder below it is opened with
 * `O_NOFOLLOW` through the folder held just before it (file-io
 * `anchorChild`), the file with `O_NOFOLLOW | O_NONBLOCK` through its held
 * folder (a FIFO never blocks the host), and what was opened is judged by
 * `fstat` of that descriptor and read from it, at most `cap + 1` bytes.
 * Where `/proc/self/fd` is missing (macOS), folders are checked with
 * `lstat` before use (the residual race docs/safety.md states).
 */
import { constants, lstatSync, realpathSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { type AnchoredDirectory, anchorChild, anchorDirectory } from "@agent-tools/file-io/internal";

/** What {@link readFileNoFollow} found. `too_large` carries the size fstat reported (or more than `cap` when read). */
export type NoFollowRead =
  | { readonly kind: "file"; readonly data: Uint8Array; readonly executable: boolean }
  | { readonly kind: "missing" | "symlink" | "directory" | "special" }
  | { readonly kind: "too_large"; readonly size: number };

const FILE_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0);
const READ_STEP = 64 * 1024;

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;

/** Opens the folders `segments` under `base` without following symlinks; a kind when one is missing, a symlink or not a folder. */
function openFolders(base: string, segments: readonly string[]): AnchoredDirectory | NoFollowRead {
  let current: AnchoredDirectory;
  try {
    current = anchorDirectory(realpathSync(base));
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return { kind: "missing" };
    throw error;
  }
  for (const name of segments) {
    const entry = current.entry(name);
    const classify = (): NoFollowRead => {
      const info = lstatSync(entry, { throwIfNoEntry: false });
      return { kind: info === undefined ? "missing" : info.isSymbolicLink() ? "symlink" : "missing" };
    };
    if (!current.anchored) {
      const info = lstatSync(entry, { throwIfNoEntry: false });
      if (info === undefined || !info.isDirectory()) {
        current.close();
        return classify();
      }
    }
    try {
      const next = anchorChild(current, name);
      current.close();
      current = next;
    } catch (error) {
      const code = codeOf(error);
      if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "ELOOP") {
        current.close();
        throw error;
      }
      const kind = classify();
      current.close();
      return kind;
    }
  }
  return current;
}

/**
 * Reads `base/segments...` (the last segment a file) as described in the
 * module comment; never throws for what the entry is, only for I/O errors.
 *
 * @example
 * const read = await readFileNoFollow(skillsRoot, ["pdf", "SKILL.md"], SKILL_LIMITS.fileMaxBytes);
 * if (read.kind === "file") parse(read.data);
 */
export async function readFileNoFollow(base: string, segments: readonly string[], cap: number): Promise<NoFollowRead> {
  const name = segments.at(-1);
  if (name === undefined || segments.some((segment) => segment === "" || segment === "." || segment === ".." || /[/\0]/.test(segment))) {
    return { kind: "missing" };
  }
  const folder = openFolders(base, segments.slice(0, -1));
  if (!("entry" in folder)) return folder;
  let handle: FileHandle;
  try {
    handle = await open(folder.entry(name), FILE_FLAGS);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ELOOP") return { kind: "symlink" };
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    if (code === "ENXIO") return { kind: "special" };
    throw error;
  } finally {
    folder.close();
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) return { kind: "directory" };
    if (!stats.isFile()) return { kind: "special" };
    if (stats.size > cap) return { kind: "too_large", size: stats.size };
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= cap) {
      const chunk = Buffer.allocUnsafe(Math.min(READ_STEP, cap + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
    }
    if (total > cap) return { kind: "too_large", size: total };
    return { kind: "file", data: Buffer.concat(chunks, total), executable: (stats.mode & 0o111) !== 0 };
  } finally {
    await handle.close();
  }
}
