import { randomBytes } from "node:crypto";
import { chmod, open, rename, unlink } from "node:fs/promises";
import path from "node:path";

/**
 * Replaces `absolutePath` atomically: writes a temporary file beside it,
 * gives it `mode` (the mode of the file being replaced), then renames it over
 * the target. Readers see the old or the new content, never a mix.
 *
 * `duringWrite` runs on the main thread while the write system call is in
 * flight on libuv's thread pool (e.g. hashing the new content), so the two
 * overlap; its result is returned.
 *
 * @example
 * await writeFileAtomic("/repo/a.txt", Buffer.from("hi\n"), 0o644);
 */
export async function writeFileAtomic<T = undefined>(absolutePath: string, data: Uint8Array, mode?: number, duringWrite?: () => T): Promise<T> {
  const directory = path.dirname(absolutePath);
  const temporary = path.join(directory, `.${path.basename(absolutePath)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temporary, "wx", mode ?? 0o666);
  let renamed = false;
  let result: T = undefined as T;
  try {
    try {
      const writing = handle.writeFile(data);
      try {
        if (duringWrite) result = duringWrite();
      } finally {
        await writing;
      }
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temporary, mode);
    await rename(temporary, absolutePath);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temporary).catch(() => undefined);
  }
  return result;
}

/** Number of lines in bytes (split inclusively of `\n`). */
export function countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let count = 0;
  for (let index = buffer.indexOf(10); index !== -1; index = buffer.indexOf(10, index + 1)) count += 1;
  return buffer[buffer.length - 1] === 10 ? count : count + 1;
}

/** The first 500 characters of a text, with a note of the full length when cut. */
export function preview(text: string, max = 500): string {
  return text.length <= max ? text : `${text.slice(0, max)}...(${text.length} chars total)...`;
}
