/**
 * The {@link WorkspaceFileSystem} of one client of a memory tree: real
 * POSIX-like semantics (symlinks followed as the kernel does, modes, mtimes,
 * exclusive create, atomic replace, rename over a file, `not_empty`,
 * `is_a_directory`) without touching the disk.
 */
import { posix } from "node:path";
import { abortReason } from "../abort.js";
import { SdkError } from "../errors.js";
import type { MemoryLockTable } from "./memory-locks.js";
import { type MemoryDirectory, type MemoryFile, isInside, memoryError, newDirectory, checkPath, statsOf, touch, walk } from "./memory-tree.js";
import { WorkspaceError } from "./workspace-error.js";
import type {
  WorkspaceDirectoryEntry,
  WorkspaceFileSystem,
  WorkspaceLock,
  WorkspaceLockOptions,
  WorkspaceReadRange,
  WorkspaceStats,
  WorkspaceWriteOptions,
} from "./workspace-port.js";

/** Bytes per chunk of `readStream`. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/** The storage shared by every client of one memory workspace. */
export interface MemoryStore {
  /** The directory `/`. */
  readonly root: MemoryDirectory;
  /** Locks across every client. */
  readonly locks: MemoryLockTable;
}

/** One client's view: the shared store and whether this client is closed. */
export interface MemoryClientState {
  readonly store: MemoryStore;
  /** The owner of this client's locks. */
  readonly owner: object;
  closed: boolean;
}

/** The `closed` error of a call after `close()`. */
export function closedError(operation: string, path?: string): WorkspaceError {
  return new WorkspaceError("closed", `${operation}${path === undefined ? "" : ` ${path}`}: the memory workspace is closed`, { path, operation });
}

/** Where a write of `path` would go; refuses what the write would refuse (missing parent, a directory, `exclusive` on an existing entry). */
function writeTarget(root: MemoryDirectory, path: string, exclusive: boolean | undefined, operation: string) {
  const found = walk(root, path, false, operation);
  if (found.parent === null || found.node?.type === "directory" || path.endsWith("/")) throw memoryError("is_a_directory", operation, path, "is a directory");
  if (exclusive && found.node !== undefined) throw memoryError("exists", operation, path, "already exists");
  return { ...found, parent: found.parent };
}

/** Writes `data` at `path` (parents must exist), replacing a file or symlink there; the synchronous core of every write. */
export function putFile(root: MemoryDirectory, path: string, data: Buffer, options: { mode?: number; exclusive?: boolean }, operation: string): void {
  const found = writeTarget(root, path, options.exclusive, operation);
  const mode = options.mode ?? (found.node?.type === "file" ? found.node.mode : 0o644);
  const file: MemoryFile = { type: "file", data, mode, mtimeMs: Date.now() };
  found.parent.entries.set(found.name, file);
  touch(found.parent);
}

/** Creates `path` and its missing parents as directories (an existing directory, or a symlink to one, is accepted). */
export function makeDirectories(root: MemoryDirectory, path: string, operation: string): void {
  let current = "";
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  parts.forEach((part, index) => {
    // Not posix.join: `..` must stay for the walk to resolve after the symlinks before it.
    current = `${current}/${part}`;
    const followed = walk(root, current, true, operation);
    if (followed.node?.type === "directory") return;
    const isLast = index === parts.length - 1;
    if (followed.node !== undefined) throw memoryError(isLast ? "exists" : "not_a_directory", operation, path, `${current} is not a directory`);
    const own = walk(root, current, false, operation);
    if (own.node !== undefined) throw memoryError("exists", operation, path, `${current} is a dangling symlink`);
    (followed.parent as MemoryDirectory).entries.set(followed.name, newDirectory());
    touch(followed.parent as MemoryDirectory);
  });
}

function checkMode(mode: unknown): number | undefined {
  if (mode === undefined) return undefined;
  if (typeof mode !== "number" || !Number.isInteger(mode) || mode < 0 || mode > 0o7777) {
    throw new SdkError("invalid_options", `writeFileAtomic: mode must be an integer from 0 to 0o7777, got ${String(mode)}.`, { option: "mode" });
  }
  return mode;
}

function byteRange(size: number, range: WorkspaceReadRange | undefined): { start: number; end: number } {
  const start = Math.min(Math.max(0, range?.start ?? 0), size);
  const end = Math.min(Math.max(start, range?.end ?? size), size);
  return { start, end };
}

async function collect(data: Uint8Array | AsyncIterable<Uint8Array>, signal: AbortSignal | undefined): Promise<Buffer> {
  if (data instanceof Uint8Array) return Buffer.from(data);
  const chunks: Buffer[] = [];
  for await (const chunk of data) {
    if (signal?.aborted) throw abortReason(signal);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The file system of one client of a memory store. */
export function createMemoryFileSystem(state: MemoryClientState): WorkspaceFileSystem {
  const root = state.store.root;
  const open = (operation: string, path: string): string => {
    if (state.closed) throw closedError(operation, path);
    return checkPath(path, operation);
  };
  const fileAt = (operation: string, path: string, signal: AbortSignal | undefined): MemoryFile => {
    if (signal?.aborted) throw abortReason(signal);
    const found = walk(root, open(operation, path), true, operation);
    if (found.node === undefined) throw memoryError("not_found", operation, path, "no such file");
    if (found.node.type === "directory") throw memoryError("is_a_directory", operation, path, "is a directory");
    return found.node as MemoryFile;
  };
  const stat = (operation: string, path: string, follow: boolean): WorkspaceStats => {
    const found = walk(root, open(operation, path), follow, operation);
    if (found.node === undefined) throw memoryError("not_found", operation, path, "no such file or directory");
    return statsOf(found.node);
  };

  return {
    stat: async (path) => stat("stat", path, true),
    lstat: async (path) => stat("lstat", path, false),
    readFile: async (path, range) => {
      const file = fileAt("readFile", path, range?.signal);
      const { start, end } = byteRange(file.data.length, range);
      return Buffer.from(file.data.subarray(start, end));
    },
    readStream: (path, range) => readChunks(state, fileAt, path, range),
    writeFileAtomic: async (path, data, options: WorkspaceWriteOptions = {}) => {
      const target = open("writeFileAtomic", path);
      const mode = checkMode(options.mode);
      if (options.signal?.aborted) throw abortReason(options.signal);
      // Refuse early what would be refused at the end (no bytes consumed for nothing); checked again at the end.
      writeTarget(root, target, options.exclusive, "writeFileAtomic");
      const bytes = await collect(data, options.signal);
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (state.closed) throw closedError("writeFileAtomic", path);
      // The "rename": the new content replaces the old in one step.
      putFile(root, target, bytes, { mode, exclusive: options.exclusive }, "writeFileAtomic");
    },
    rename: async (from, to) => {
      const source = walk(root, open("rename", from), false, "rename");
      const destination = walk(root, open("rename", to), false, "rename");
      const node = source.node;
      if (node === undefined) throw memoryError("not_found", "rename", from, "no such file or directory");
      if (source.parent === null || destination.parent === null) throw memoryError("io", "rename", from, "cannot rename the root directory");
      if (destination.node === node) return;
      if (node.type === "directory") {
        if (isInside(node, destination.parent)) throw memoryError("io", "rename", from, `cannot move a directory into itself (${to})`);
        if (destination.node !== undefined && destination.node.type !== "directory") throw memoryError("not_a_directory", "rename", to, "is not a directory");
        if (destination.node?.type === "directory" && destination.node.entries.size > 0) throw memoryError("not_empty", "rename", to, "directory not empty");
      } else if (destination.node?.type === "directory") {
        throw memoryError("is_a_directory", "rename", to, "is a directory");
      }
      source.parent.entries.delete(source.name);
      destination.parent.entries.set(destination.name, node);
      touch(source.parent);
      touch(destination.parent);
    },
    unlink: async (path) => {
      const found = walk(root, open("unlink", path), false, "unlink");
      if (found.node === undefined) throw memoryError("not_found", "unlink", path, "no such file or directory");
      if (found.node.type === "directory" || found.parent === null) throw memoryError("is_a_directory", "unlink", path, "is a directory");
      found.parent.entries.delete(found.name);
      touch(found.parent);
    },
    mkdir: async (path, options) => {
      const target = open("mkdir", path);
      if (options?.recursive) return makeDirectories(root, target, "mkdir");
      const found = walk(root, target, false, "mkdir");
      if (found.node !== undefined || found.parent === null) throw memoryError("exists", "mkdir", path, "already exists");
      found.parent.entries.set(found.name, newDirectory());
      touch(found.parent);
    },
    rmdir: async (path) => {
      const found = walk(root, open("rmdir", path), false, "rmdir");
      if (found.node === undefined) throw memoryError("not_found", "rmdir", path, "no such directory");
      if (found.node.type !== "directory") throw memoryError("not_a_directory", "rmdir", path, "is not a directory");
      if (found.node.entries.size > 0) throw memoryError("not_empty", "rmdir", path, "directory not empty");
      if (found.parent === null) throw memoryError("permission_denied", "rmdir", path, "cannot remove the root directory");
      found.parent.entries.delete(found.name);
      touch(found.parent);
    },
    readdir: async (path): Promise<WorkspaceDirectoryEntry[]> => {
      const found = walk(root, open("readdir", path), true, "readdir");
      if (found.node === undefined) throw memoryError("not_found", "readdir", path, "no such directory");
      if (found.node.type !== "directory") throw memoryError("not_a_directory", "readdir", path, "is not a directory");
      return [...found.node.entries].map(([name, node]) => ({ name, type: node.type }));
    },
    realpath: async (path) => {
      const found = walk(root, open("realpath", path), true, "realpath");
      if (found.node === undefined) throw memoryError("not_found", "realpath", path, "no such file or directory");
      return found.path;
    },
    readlink: async (path) => {
      const found = walk(root, open("readlink", path), false, "readlink");
      if (found.node === undefined) throw memoryError("not_found", "readlink", path, "no such file or directory");
      if (found.node.type !== "symlink") throw memoryError("io", "readlink", path, "not a symbolic link");
      return found.node.target;
    },
    lock: async (path, options: WorkspaceLockOptions = {}): Promise<WorkspaceLock> => {
      const key = posix.resolve(open("lock", path));
      return state.store.locks.acquire(key, state.owner, options);
    },
  };
}

async function* readChunks(
  state: MemoryClientState,
  fileAt: (operation: string, path: string, signal: AbortSignal | undefined) => MemoryFile,
  path: string,
  range: WorkspaceReadRange | undefined,
): AsyncGenerator<Buffer> {
  // Holding the Buffer is holding the open file: a later replace does not change what this stream reads.
  const data = fileAt("readStream", path, range?.signal).data;
  const { start, end } = byteRange(data.length, range);
  for (let offset = start; offset < end; offset += STREAM_CHUNK_BYTES) {
    if (range?.signal?.aborted) throw abortReason(range.signal);
    if (state.closed) throw closedError("readStream", path);
    yield Buffer.from(data.subarray(offset, Math.min(end, offset + STREAM_CHUNK_BYTES)));
  }
}
