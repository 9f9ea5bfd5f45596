import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

const NO_FOLLOW = constants.O_NOFOLLOW;
/**
 * How every existing session file is opened for reading: no symlink followed,
 * and never blocking (a FIFO planted in place of a file would otherwise hold
 * the host's event loop on open or read until a writer came).
 */
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK;
/** The largest JSON file a session holds (`spec.json` with a long command, `cursor.json`): anything bigger was not written by a host or a supervisor. */
const MAX_JSON_BYTES = 1024 * 1024;

/** Opens an existing regular file for reading (see {@link READ_FLAGS}); undefined when missing, a link, a FIFO, a device or a directory. */
function openRegularFile(file: string): number | undefined {
  let descriptor: number;
  try {
    descriptor = openSync(file, READ_FLAGS);
  } catch {
    return undefined;
  }
  if (fstatSync(descriptor).isFile()) return descriptor;
  closeSync(descriptor);
  return undefined;
}

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

/** Reads and parses a JSON file without following a symlink; undefined when missing, not a regular file, over 1 MiB or unparsable. */
export function readJsonFile<T>(file: string): T | undefined {
  const descriptor = openRegularFile(file);
  if (descriptor === undefined) return undefined;
  try {
    if (fstatSync(descriptor).size > MAX_JSON_BYTES) return undefined;
    return JSON.parse(readFileSync(descriptor, "utf8")) as T;
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

/** Reads up to `maxBytes` from byte `from` of a file, without following a symlink; empty when missing or not a regular file. */
export function readFileRange(file: string, from: number, maxBytes: number): { data: Buffer; size: number } {
  const descriptor = openRegularFile(file);
  if (descriptor === undefined) return { data: Buffer.alloc(0), size: 0 };
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

/** Size of a file without following a symlink; 0 when missing or not a regular file. */
export function fileSizeNoFollow(file: string): number {
  const descriptor = openRegularFile(file);
  if (descriptor === undefined) return 0;
  try {
    return fstatSync(descriptor).size;
  } finally {
    closeSync(descriptor);
  }
}
