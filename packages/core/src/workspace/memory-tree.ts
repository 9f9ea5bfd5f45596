/**
 * The in-memory tree behind `createMemoryWorkspace`: directories, files and
 * symlinks, and the path walk (symlinks followed as the kernel does, at most
 * 40 hops).
 */
import { posix } from "node:path";
import { WorkspaceError, type WorkspaceErrorCode } from "./workspace-error.js";
import type { WorkspaceEntryType, WorkspaceStats } from "./workspace-port.js";

/** Symlinks one walk follows at most (as Linux's MAXSYMLINKS). */
const MAX_HOPS = 40;

/** A regular file. Its `data` is never mutated: a write puts a new Buffer in place (an open reader keeps the old one). */
export interface MemoryFile {
  readonly type: "file";
  data: Buffer;
  mode: number;
  mtimeMs: number;
}

/** A directory. */
export interface MemoryDirectory {
  readonly type: "directory";
  readonly entries: Map<string, MemoryNode>;
  mode: number;
  mtimeMs: number;
}

/** A symlink (its target text, relative or absolute, may dangle). */
export interface MemorySymlink {
  readonly type: "symlink";
  readonly target: string;
  readonly mode: number;
  mtimeMs: number;
}

/** Any node of the tree. */
export type MemoryNode = MemoryFile | MemoryDirectory | MemorySymlink;

/** Where a walk ended: the directory holding the last component, and what it names (if anything). */
export interface MemoryLookup {
  /** The directory holding `name`; null for the root `/` itself. */
  readonly parent: MemoryDirectory | null;
  /** The last component (empty for `/`). */
  readonly name: string;
  /** The node named, or undefined when the last component is missing. */
  readonly node: MemoryNode | undefined;
  /** The canonical path of the last component (its parent's symlinks resolved). */
  readonly path: string;
}

/** A {@link WorkspaceError} of an operation on a path. */
export function memoryError(code: WorkspaceErrorCode, operation: string, path: string, message: string): WorkspaceError {
  return new WorkspaceError(code, `${operation} ${path}: ${message}`, { path, operation });
}

/** A new empty directory. */
export function newDirectory(mode = 0o755): MemoryDirectory {
  return { type: "directory", entries: new Map(), mode, mtimeMs: Date.now() };
}

/** What `stat`/`lstat` report of a node. */
export function statsOf(node: MemoryNode): WorkspaceStats {
  const type: WorkspaceEntryType = node.type;
  const size = node.type === "file" ? node.data.length : node.type === "symlink" ? Buffer.byteLength(node.target) : 4096;
  return { type, size, mtimeMs: node.mtimeMs, mode: node.mode };
}

/** Marks a directory's entries as changed. */
export function touch(directory: MemoryDirectory): void {
  directory.mtimeMs = Date.now();
}

/**
 * Checks a port path: absolute POSIX, no NUL byte (else `io`; the port takes
 * absolute paths only). The path is returned as given: `..` is resolved by
 * {@link walk} after the symlinks before it, as the kernel does, never
 * lexically.
 */
export function checkPath(path: string, operation: string): string {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw memoryError("io", operation, String(path), "the memory workspace takes absolute POSIX paths only");
  }
  if (path.includes("\0")) throw memoryError("io", operation, path, "a path may not contain a NUL byte");
  return path;
}

/**
 * Walks `path` from `root`. Every component but the last must be a
 * directory (symlinks to one are followed); the last is followed when
 * `followLeaf`. Throws `not_found` / `not_a_directory` for a missing or
 * non-directory middle component and `symlink_loop` past 40 hops; a missing
 * last component is reported as `node: undefined`. `..` goes to the parent
 * of the directory actually reached (after symlinks), not lexically.
 */
export function walk(root: MemoryDirectory, path: string, followLeaf: boolean, operation: string): MemoryLookup {
  // A trailing slash names a directory: the last component is followed and must be one.
  if (path.length > 1 && path.endsWith("/")) {
    const found = walk(root, path.replace(/\/+$/, "") || "/", true, operation);
    if (found.node !== undefined && found.node.type !== "directory") throw memoryError("not_a_directory", operation, path, "is not a directory");
    return found;
  }
  const pending = path.split("/").filter((part) => part !== "" && part !== ".");
  pending.reverse();
  let directory = root;
  let directoryPath = "/";
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === "." || part === "") continue;
    if (part === "..") {
      directoryPath = posix.dirname(directoryPath);
      directory = directoryAt(root, directoryPath);
      continue;
    }
    const isLast = pending.every((rest) => rest === "." || rest === "");
    const node = directory.entries.get(part);
    if (node === undefined) {
      if (isLast) return { parent: directory, name: part, node: undefined, path: posix.join(directoryPath, part) };
      throw memoryError("not_found", operation, path, `${posix.join(directoryPath, part)} does not exist`);
    }
    if (node.type === "symlink" && (!isLast || followLeaf)) {
      hops += 1;
      if (hops > MAX_HOPS) throw memoryError("symlink_loop", operation, path, "too many levels of symbolic links");
      const target = node.target.split("/").filter((piece) => piece !== "" && piece !== ".");
      pending.push(...target.reverse());
      if (node.target.startsWith("/")) {
        directory = root;
        directoryPath = "/";
      }
      continue;
    }
    if (isLast) return { parent: directory, name: part, node, path: posix.join(directoryPath, part) };
    if (node.type !== "directory") throw memoryError("not_a_directory", operation, path, `${posix.join(directoryPath, part)} is not a directory`);
    directory = node;
    directoryPath = posix.join(directoryPath, part);
  }
  // The walk ended on a directory reached through `..` or a symlink (or `/` itself).
  if (directoryPath === "/") return { parent: null, name: "", node: root, path: "/" };
  return { parent: directoryAt(root, posix.dirname(directoryPath)), name: posix.basename(directoryPath), node: directory, path: directoryPath };
}

/** The directory at a canonical path (no symlinks in it); it exists, as the walk came through it. */
function directoryAt(root: MemoryDirectory, canonicalPath: string): MemoryDirectory {
  let directory = root;
  for (const part of canonicalPath.split("/").filter(Boolean)) {
    const next = directory.entries.get(part);
    if (next?.type !== "directory") throw memoryError("not_found", "walk", canonicalPath, "the directory vanished");
    directory = next;
  }
  return directory;
}

/** True when `node` is `ancestor` or lies inside it. */
export function isInside(ancestor: MemoryDirectory, node: MemoryNode): boolean {
  if (node === ancestor) return true;
  for (const child of ancestor.entries.values()) {
    if (child.type === "directory" && isInside(child, node)) return true;
  }
  return false;
}
