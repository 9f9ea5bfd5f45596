import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

const NO_FOLLOW = constants.O_NOFOLLOW;

/**
 * Creates `directory` with mode 0700; fails when it exists (a session
 * directory is never reused, so a planted one is not adopted).
 */
export function createPrivateDirectory(directory: string): void {
  mkdirSync(directory, { mode: 0o700 });
}

/** Writes a new file (mode 0600); fails when the name exists, also as a symlink. */
export function writeNewFile(file: string, text: string): void {
  const descriptor = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW, 0o600);
  try {
    writeSync(descriptor, text);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Replaces `file` whole with `value` as JSON: a new temporary file beside
 * it, then rename, so a reader (or a host killed mid-write) sees the old or
 * the new content, never a mix. Rename replaces a symlink itself, never its target.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`);
  writeNewFile(temporary, `${JSON.stringify(value)}\n`);
  try {
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // already gone
    }
    throw error;
  }
}

/** Reads and parses a JSON file without following a symlink; undefined when missing, a link or unparsable. */
export function readJsonFile<T>(file: string): T | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(readFileSync(descriptor, "utf8")) as T;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** Reads up to `maxBytes` from byte `from` of a file, without following a symlink; empty when missing. */
export function readFileRange(file: string, from: number, maxBytes: number): { data: Buffer; size: number } {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return { data: Buffer.alloc(0), size: 0 };
  }
  try {
    const size = fstatSync(descriptor).size;
    const start = Math.min(Math.max(0, Math.floor(from)), size);
    const length = Math.max(0, Math.min(maxBytes, size - start));
    const data = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const count = readSync(descriptor, data, read, length - read, start + read);
      if (count === 0) break;
      read += count;
    }
    return { data: data.subarray(0, read), size };
  } finally {
    closeSync(descriptor);
  }
}

/** Size of a file without following a symlink; 0 when missing. */
export function fileSizeNoFollow(file: string): number {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | NO_FOLLOW);
  } catch {
    return 0;
  }
  try {
    return fstatSync(descriptor).size;
  } finally {
    closeSync(descriptor);
  }
}
