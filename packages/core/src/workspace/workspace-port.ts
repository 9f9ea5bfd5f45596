/**
 * The Workspace port: where a registry's tools find files and run
 * processes. The local disk, an in-memory tree, a remote machine over SSH or
 * a provider's sandbox all implement this one interface; every adapter is
 * checked by the same contract suite (`runWorkspaceContract` of
 * `@agent-tools/node/testing`).
 *
 * Paths given to the port are absolute POSIX paths in the workspace's own
 * namespace (on an SSH workspace, paths of the remote machine). The port does
 * not check containment itself: `resolveInWorkspace` of
 * `@agent-tools/core/workspace` canonicalises a path through the port and
 * refuses one whose canonical form leaves the workspace's root.
 */
import type { ProcessRunner } from "../ports/process-runner.js";

/** The kind of a directory entry or of what a path names. */
export type WorkspaceEntryType = "file" | "directory" | "symlink" | "other";

/** What `stat` / `lstat` report. */
export interface WorkspaceStats {
  /** What the path names (`lstat`: a symlink is `"symlink"`; `stat` follows it). */
  readonly type: WorkspaceEntryType;
  /** Size in bytes (a symlink: the length of its target text). */
  readonly size: number;
  /** Last modification, milliseconds since the epoch (whole seconds on SFTP). */
  readonly mtimeMs: number;
  /** Permission bits (`0o777` part and set-id bits), without the file-type bits. */
  readonly mode: number;
}

/** One entry of `readdir`. */
export interface WorkspaceDirectoryEntry {
  /** The entry's name (no slashes). */
  readonly name: string;
  /** Its type, as `lstat` would give it (a symlink is never followed here). */
  readonly type: WorkspaceEntryType;
}

/** A byte range of a read: `start` inclusive, `end` exclusive. */
export interface WorkspaceReadRange {
  /** First byte; default 0. */
  readonly start?: number;
  /** One past the last byte; default: the end of the file. */
  readonly end?: number;
  /** Aborting stops the read with an `AbortError`-named error. */
  readonly signal?: AbortSignal;
}

/** Options of {@link WorkspaceFileSystem.writeFileAtomic}. */
export interface WorkspaceWriteOptions {
  /**
   * Permission bits of the new file. Default: those of the file it replaces,
   * else `0o644` (minus the workspace's umask where it applies).
   */
  readonly mode?: number;
  /** Refuse (`exists`) when the path already exists. */
  readonly exclusive?: boolean;
  /** Aborting before the rename leaves the old file and no temporary file. */
  readonly signal?: AbortSignal;
}

/** A held cross-process lock of one file (see {@link WorkspaceFileSystem.lock}). */
export interface WorkspaceLock {
  /** Releases the lock; safe to call repeatedly. */
  release(): Promise<void>;
}

/** Options of {@link WorkspaceFileSystem.lock}. */
export interface WorkspaceLockOptions {
  /** Give up waiting (`locked`) after this many milliseconds; default 10,000. */
  readonly timeoutMs?: number;
  /** Aborting stops waiting. */
  readonly signal?: AbortSignal;
}

/**
 * The file system of a workspace. Every method rejects with a
 * `WorkspaceError` whose `code` says what went wrong (`not_found`, `exists`,
 * `not_a_directory`, `is_a_directory`, `not_empty`, `permission_denied`,
 * `symlink_loop`, `locked`, `unsupported`, `connection`, `io`, `closed`).
 */
export interface WorkspaceFileSystem {
  /** Follows symlinks. */
  stat(path: string): Promise<WorkspaceStats>;
  /** Does not follow a symlink in the last component. */
  lstat(path: string): Promise<WorkspaceStats>;
  /** Reads a byte range of a file (the whole file by default), following symlinks. */
  readFile(path: string, range?: WorkspaceReadRange): Promise<Buffer>;
  /** Streams a byte range of a file in chunks, following symlinks. */
  readStream(path: string, range?: WorkspaceReadRange): AsyncIterable<Buffer>;
  /**
   * Replaces (or creates) a file atomically: the bytes go to a temporary file
   * beside it, which is then renamed over the path, so a reader or a crash
   * (SIGKILL, a dropped connection) sees the old file or the new one, never
   * a torn one. The permission bits of a replaced file are kept. A symlink
   * at the path is replaced by the file, never written through.
   */
  writeFileAtomic(path: string, data: Uint8Array | AsyncIterable<Uint8Array>, options?: WorkspaceWriteOptions): Promise<void>;
  /** Renames an entry, replacing a file at `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or symlink (never what a symlink points to). */
  unlink(path: string): Promise<void>;
  /** Creates a directory; `recursive` creates missing parents and accepts an existing directory. */
  mkdir(path: string, options?: { readonly recursive?: boolean }): Promise<void>;
  /** Removes an empty directory. */
  rmdir(path: string): Promise<void>;
  /** The entries of a directory, without `.` and `..`, in no promised order. */
  readdir(path: string): Promise<WorkspaceDirectoryEntry[]>;
  /** The canonical path: every symlink resolved; the path must exist. */
  realpath(path: string): Promise<string>;
  /** The target text of a symlink. */
  readlink(path: string): Promise<string>;
  /**
   * Takes the cross-process lock of one file (for one writer per file across
   * every client of the workspace: another registry, another host). The
   * file itself need not exist. Rejects with `locked` after the timeout.
   */
  lock(path: string, options?: WorkspaceLockOptions): Promise<WorkspaceLock>;
}

/**
 * What a workspace can do, so a tool picks its strategy; a tool that needs a
 * missing capability refuses with a clear error, never falling back to the
 * local machine.
 */
export interface WorkspaceCapabilities {
  /**
   * Paths of the workspace are paths of this host's own disk, so a tool may
   * open them with the host's file layer (the local workspace only).
   */
  readonly localPaths: boolean;
  /** `processes` is present: commands run in the workspace. */
  readonly processes: boolean;
  /** ripgrep (`rg`) runs in the workspace. */
  readonly ripgrep: boolean;
  /** git runs in the workspace. */
  readonly git: boolean;
  /** Commands can run on a pseudo-terminal. */
  readonly pty: boolean;
  /**
   * Opens are anchored by descriptor and never follow a symlink raced in
   * after the containment check (the local workspace on Linux). Without it a
   * concurrent writer inside the workspace could swap a checked directory
   * for a symlink between the check and the use.
   */
  readonly anchoredOpens: boolean;
}

/** A place where the tools work: files and, optionally, processes. */
export interface Workspace {
  /** The adapter's kind: `"local"`, `"memory"`, `"ssh"`, or a provider's own name. */
  readonly kind: string;
  /** For messages and logs: where this workspace is, without credentials (e.g. `ssh://dev@10.0.0.5:22`). */
  readonly label: string;
  /** The absolute, canonical root: nothing outside it is read or written through the tools. */
  readonly root: string;
  /** The file system. */
  readonly fs: WorkspaceFileSystem;
  /**
   * Processes run in the workspace (cwd and paths are workspace paths); the
   * ProcessRunner contract holds: own process group, streamed output,
   * whole-tree kill. Absent when `capabilities.processes` is false.
   */
  readonly processes?: ProcessRunner;
  /** What it can do. */
  readonly capabilities: WorkspaceCapabilities;
  /**
   * Releases everything: kills the processes it started (but isolated
   * ones), drops locks it holds, closes connections. Later calls reject
   * with `closed`. Safe to call repeatedly.
   */
  close(): Promise<void>;
}
