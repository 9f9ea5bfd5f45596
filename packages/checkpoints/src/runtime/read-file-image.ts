import { createHash } from "node:crypto";
import { type ContainedTree, openContainedTree } from "@agent-tools/file-io/internal";
import type { FileImage } from "../domain/file-image.js";

const EMPTY = new Uint8Array(0);

/** The image of a path that holds nothing. */
export const ABSENT_IMAGE: FileImage = Object.freeze({ kind: "absent", mode: 0, sha256: "", linkTarget: "", content: EMPTY });

/** Lower-case hex SHA-256 of bytes or text. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * What `path` (absolute, canonical) holds now, without following a symlink
 * anywhere on it: a regular file's bytes and permission bits, a symlink's
 * target, a directory's permission bits, or absence (also when a parent is
 * missing or is not a directory). A directory on the way that is a symlink
 * now is refused with `ToolError("out_of_bounds")`: the path no longer names
 * what was recorded. Pipes, sockets and devices are refused: the file tools
 * never change them. `tree` is a tree at `/` to reuse (one is opened for the
 * call otherwise).
 */
export async function readFileImage(path: string, tree?: ContainedTree): Promise<FileImage> {
  const root = tree ?? openContainedTree("/");
  try {
    return await readImage(root, path.replace(/^\/+/, ""), path);
  } finally {
    if (tree === undefined) root.close();
  }
}

async function readImage(tree: ContainedTree, relative: string, path: string): Promise<FileImage> {
  let info: Awaited<ReturnType<ContainedTree["lstat"]>>;
  try {
    info = await tree.lstat(relative);
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return ABSENT_IMAGE;
    throw error;
  }
  if (info === undefined) return ABSENT_IMAGE;
  if (info.isSymbolicLink()) {
    const linkTarget = await tree.readlink(relative);
    return { kind: "symlink", mode: 0, sha256: sha256Hex(linkTarget), linkTarget, content: EMPTY };
  }
  if (info.isDirectory()) return { kind: "directory", mode: Number(info.mode) & 0o7777, sha256: "", linkTarget: "", content: EMPTY };
  if (!info.isFile()) throw new Error(`${path} is neither a regular file, a directory nor a symlink, so its state cannot be recorded`);
  // Opened with O_NOFOLLOW: a symlink swapped in since the lstat is refused, not read through.
  const content = new Uint8Array(await tree.readFile(relative));
  return { kind: "file", mode: Number(info.mode) & 0o7777, sha256: sha256Hex(content), linkTarget: "", content };
}
