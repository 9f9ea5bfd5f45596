import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, readlink } from "node:fs/promises";
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
 * What `path` holds now, without following a symlink in its last component:
 * a regular file's bytes and permission bits, a symlink's target, a
 * directory's permission bits, or absence (also when a parent is missing or
 * is not a directory). Pipes, sockets and devices are refused: the file tools
 * never change them.
 */
export async function readFileImage(path: string): Promise<FileImage> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(path);
  } catch (error) {
    if (codeOf(error) === "ENOENT" || codeOf(error) === "ENOTDIR") return ABSENT_IMAGE;
    throw error;
  }
  if (info.isSymbolicLink()) {
    const linkTarget = await readlink(path);
    return { kind: "symlink", mode: 0, sha256: sha256Hex(linkTarget), linkTarget, content: EMPTY };
  }
  if (info.isDirectory()) return { kind: "directory", mode: Number(info.mode) & 0o7777, sha256: "", linkTarget: "", content: EMPTY };
  if (!info.isFile()) throw new Error(`${path} is neither a regular file, a directory nor a symlink, so its state cannot be recorded`);
  // O_NOFOLLOW: a symlink swapped in since the lstat is refused, not read through.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const stats = await handle.stat();
    const content = new Uint8Array(await handle.readFile());
    return { kind: "file", mode: Number(stats.mode) & 0o7777, sha256: sha256Hex(content), linkTarget: "", content };
  } finally {
    await handle.close();
  }
}
