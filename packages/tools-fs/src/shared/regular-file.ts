import { type Stats, constants, fstatSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { ToolError } from "@agent-tools/core";

/**
 * Opens for reading without following a symlink and without blocking: a FIFO
 * opened for reading would otherwise wait for a writer on one of libuv's few
 * pool threads, and four such waits freeze every file operation of the process.
 */
const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** What kind of special file `stats` describes, in words for a message. */
export function describeFileType(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symlink";
  return "not a regular file";
}

/**
 * Refuses anything but a regular file, before it is opened: directories with
 * `not_a_file`, pipes, sockets and devices with `unsupported_target`.
 */
export function assertRegularFile(toolName: string, displayPath: string, stats: Stats): void {
  if (stats.isFile()) return;
  if (stats.isDirectory()) {
    throw new ToolError("not_a_file", `${toolName} failed: ${displayPath} is a directory. Use List to see its entries, or pass a file path.`, {
      details: { path: displayPath },
    });
  }
  throw new ToolError(
    "unsupported_target",
    `${toolName} refused: ${displayPath} is ${describeFileType(stats)}, not a regular file. ${toolName} works on regular files only; use Bash if you really mean to read or write a special file.`,
    { details: { path: displayPath, fileType: describeFileType(stats) } },
  );
}

/** An opened regular file and its `fstat`. */
export interface OpenedFile {
  readonly handle: FileHandle;
  readonly stats: Stats;
}

/**
 * Opens the regular file at `entryPath` for reading: `O_NOFOLLOW` (a symlink
 * swapped in is refused with ELOOP), `O_NONBLOCK` (a FIFO swapped in cannot
 * block), then checks with `fstat` that it is a regular file and, when
 * `expected` is given, the same inode that was checked before opening.
 */
export async function openRegularFile(toolName: string, displayPath: string, entryPath: string, expected?: Stats): Promise<OpenedFile> {
  const handle = await open(entryPath, READ_FLAGS);
  let stats: Stats;
  try {
    stats = fstatSync(handle.fd); // no I/O: cheaper than a thread-pool round trip
    assertRegularFile(toolName, displayPath, stats);
    if (expected && (stats.ino !== expected.ino || stats.dev !== expected.dev)) {
      throw new ToolError("conflict", `${toolName} failed: ${displayPath} was replaced while it was being opened. Retry.`, { details: { path: displayPath } });
    }
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { handle, stats };
}

/** A path that reopens an open descriptor's file (for libraries that take a path); Linux only. */
export function descriptorPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}
