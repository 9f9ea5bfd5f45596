/**
 * The WorkspaceFileSystem of the local disk: Node's `fs` promises for reads
 * and metadata, the file layer's anchored directories for every change
 * (atomic writes, locks, rename, unlink, mkdir, rmdir), every failure
 * mapped onto a WorkspaceError, every call refused with `closed` once the
 * workspace is closed.
 */
import type { Stats } from "node:fs";
import { lstat, readdir, readlink, realpath, stat } from "node:fs/promises";
import type {
  WorkspaceDirectoryEntry,
  WorkspaceEntryType,
  WorkspaceFileSystem,
  WorkspaceLock,
  WorkspaceReadRange,
  WorkspaceStats,
} from "@agent-tools/core/workspace";
import { writeLocalFileAtomic } from "./local-atomic-write.js";
import { closedError, mapErrno } from "./local-errors.js";
import { lockLocalFile } from "./local-lock.js";
import { mkdirLocal, renameLocal, rmdirLocal, unlinkLocal } from "./local-mutations.js";
import { readLocalFile, streamLocalFile } from "./local-read.js";

/** What the file system needs from its workspace. */
export interface LocalFileSystemState {
  /** The workspace's canonical root: writes and locks below it stay below it. */
  readonly root: string;
  /** True once the workspace is closed. */
  isClosed(): boolean;
  /** Remembers a held lock, so closing the workspace releases it. */
  trackLock(lock: WorkspaceLock): () => void;
}

function entryType(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): WorkspaceEntryType {
  if (entry.isSymbolicLink()) return "symlink";
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "directory";
  return "other";
}

function statsOf(stats: Stats): WorkspaceStats {
  return { type: entryType(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode % 0o10000 };
}

/** The local file system of a workspace (paths are absolute host paths). */
export function createLocalFileSystem(state: LocalFileSystemState): WorkspaceFileSystem {
  const guard = <T>(operation: string, path: string, run: () => Promise<T>): Promise<T> =>
    state.isClosed() ? Promise.reject(closedError(operation, path)) : mapErrno(operation, path, run);

  return {
    stat: (path) => guard("stat", path, async () => statsOf(await stat(path))),
    lstat: (path) => guard("lstat", path, async () => statsOf(await lstat(path))),
    readFile: (path, range?: WorkspaceReadRange) => guard("readFile", path, () => readLocalFile(path, state.root, range)),
    async *readStream(path, range?: WorkspaceReadRange) {
      if (state.isClosed()) throw closedError("readStream", path);
      yield* streamLocalFile(path, state.root, range);
    },
    writeFileAtomic: (path, data, options = {}) =>
      guard("writeFileAtomic", path, () => writeLocalFileAtomic(path, data, options, { root: state.root, umask: process.umask() })),
    rename: (from, to) => guard("rename", from, () => renameLocal(from, to, state.root)),
    unlink: (path) => guard("unlink", path, () => unlinkLocal(path, state.root)),
    mkdir: (path, options) => guard("mkdir", path, () => mkdirLocal(path, state.root, options?.recursive === true)),
    rmdir: (path) => guard("rmdir", path, () => rmdirLocal(path, state.root)),
    readdir: (path) =>
      guard("readdir", path, async (): Promise<WorkspaceDirectoryEntry[]> => {
        const entries = await readdir(path, { withFileTypes: true });
        return entries.map((entry) => ({ name: entry.name, type: entryType(entry) }));
      }),
    realpath: (path) => guard("realpath", path, () => realpath(path)),
    readlink: (path) => guard("readlink", path, () => readlink(path)),
    lock: (path, options = {}) =>
      guard("lock", path, async () => {
        let forget: () => void = () => undefined;
        const lock = await lockLocalFile(path, state.root, options, () => forget());
        forget = state.trackLock(lock);
        return lock;
      }),
  };
}
