/**
 * Directories held open by descriptor, so that a path checked once is the
 * path used afterwards.
 *
 * A path policy checks a path by name; if the file tools then used the name
 * again, a second process could swap a directory on the way for a symlink to
 * somewhere else between the check and the use. On Linux the tools therefore
 * open the containing directory once, verify through `/proc/self/fd/<fd>`
 * which directory they really opened, and reach every entry through
 * `/proc/self/fd/<fd>/<name>`: the kernel resolves that relative to the
 * opened directory object, whatever its path names by then.
 *
 * Where `/proc/self/fd` is not available (macOS, a Linux without procfs),
 * entries are reached by their full path, with `O_NOFOLLOW` on the last
 * component only; the residual race is documented in docs/tools-fs.md.
 */
import { closeSync, constants, existsSync, openSync, readlinkSync } from "node:fs";
import path from "node:path";

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

let procFdAvailable: boolean | undefined;

/** True when `/proc/self/fd` resolves opened descriptors (Linux with procfs). */
export function hasProcFd(): boolean {
  if (procFdAvailable === undefined) {
    try {
      procFdAvailable = process.platform === "linux" && existsSync("/proc/self/fd") && readlinkSync("/proc/self/fd/0").length > 0;
    } catch {
      procFdAvailable = process.platform === "linux" && existsSync("/proc/self/fd");
    }
  }
  return procFdAvailable;
}

/** A directory held open; entries are reached through the descriptor. */
export interface AnchoredDirectory {
  /** The canonical path the directory had when it was opened and verified. */
  readonly path: string;
  /** True when entries are reached through the descriptor (race-safe), false on the path fallback. */
  readonly anchored: boolean;
  /** A path that reaches `name` inside this very directory. */
  entry(name: string): string;
  /** The path of the directory itself through its descriptor (for readdir). */
  self(): string;
  /** Closes the descriptor (idempotent). */
  close(): void;
}

/** Thrown when the opened directory is not the one that was checked (a racing rename or symlink swap). */
export class DirectoryMovedError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`directory ${expected} resolved to ${actual} when it was opened`);
    this.name = "DirectoryMovedError";
  }
}

function anchoredAt(fd: number, canonicalPath: string): AnchoredDirectory {
  const base = `/proc/self/fd/${fd}`;
  let open = true;
  return {
    path: canonicalPath,
    anchored: true,
    entry: (name) => `${base}/${name}`,
    self: () => base,
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

function unanchored(canonicalPath: string): AnchoredDirectory {
  return { path: canonicalPath, anchored: false, entry: (name) => path.join(canonicalPath, name), self: () => canonicalPath, close() {} };
}

function verify(fd: number, expected: string): void {
  let actual: string;
  try {
    actual = readlinkSync(`/proc/self/fd/${fd}`);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if (actual !== expected) {
    closeSync(fd);
    throw new DirectoryMovedError(expected, actual);
  }
}

/**
 * Opens the directory at `canonicalPath` (which must contain no symlinks)
 * and verifies it is the directory that path names now; throws
 * {@link DirectoryMovedError} when a component was swapped on the way.
 */
export function anchorDirectory(canonicalPath: string): AnchoredDirectory {
  if (!hasProcFd()) return unanchored(canonicalPath);
  const fd = openSync(canonicalPath, DIRECTORY_FLAGS);
  verify(fd, canonicalPath);
  return anchoredAt(fd, canonicalPath);
}

/**
 * Opens `name` inside `parent` as a directory without following a symlink
 * there; the result's path is `parent.path/name`.
 */
export function anchorChild(parent: AnchoredDirectory, name: string): AnchoredDirectory {
  const canonicalPath = path.join(parent.path, name);
  if (!parent.anchored) return unanchored(canonicalPath);
  const fd = openSync(parent.entry(name), DIRECTORY_FLAGS | constants.O_NOFOLLOW);
  return anchoredAt(fd, canonicalPath);
}
