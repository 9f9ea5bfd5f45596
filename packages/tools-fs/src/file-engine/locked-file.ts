import type { Stats } from "node:fs";
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import { type PreparedTemporary, prepareTemporary } from "@agent-tools/file-io/internal";
import type { PendingHash } from "../fast-io/hash-worker.js";
import type { PooledRead, ReadProgress } from "../fast-io/read-buffer-pool.js";
import type { FileVersion, FullTextSnapshot } from "../shared/file-state.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";
import type { OpenedFile } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type AnchoredTarget, openTarget } from "./anchored-target.js";
import { type MutationHashOptions, type WrittenVersion, commitAtomically } from "./atomic-commit.js";
import { withCheckpointRecording } from "./checkpoint-recording.js";
import { assertNotStale } from "./staleness.js";

/** One mutation of one file: which, by which tool, and how it is pinned. */
export interface MutationRequest {
  /** Tool name for messages. */
  toolName: string;
  /** The resolved path. */
  resolved: ResolvedPath;
  /** The call's context (signal, checkpoint, ports). */
  context: ToolContext;
  /** Follow a symlink in the last component (Write, Edit); false for Delete. */
  followLeaf: boolean;
  /** Create missing parent directories (Write). */
  createParents?: boolean;
}

/** What a {@link LockedFile} is made of (see `FileEngine.mutate`). */
export interface LockedFileParts {
  request: MutationRequest;
  /** The pinned target, with the entry's `lstat` taken under the lock. */
  target: AnchoredTarget;
  environment: FsToolEnvironment;
  hashing: MutationHashOptions;
}

/** The whole content of a locked file, read into (possibly pooled) memory. */
export interface FileContent {
  /** The bytes. */
  readonly bytes: Buffer;
  /** `fstat` of the opened file. */
  readonly stats: Stats;
  /** The bytes live in pooled memory (not owned by the caller). */
  readonly pooled: boolean;
  /**
   * Gives the memory back (once `pendingHash` has copied it, when given)
   * and closes the descriptor on the thread pool without waiting for it
   * (call it after the commit: see {@link LockedFile.readWhole}).
   */
  finish(pendingHash?: PendingHash): Promise<void>;
}

/** New content to commit. */
export interface CommitRequest {
  /** The new content, in order. */
  pieces: readonly Buffer[];
  /** The new content's line count when the hash is deferred (see `commitAtomically`). */
  countLines: () => number;
  /** The ArrayBuffer under the pieces when the caller owns it and will not touch it again. */
  transfer?: ArrayBuffer;
  /** The temporary file, when created ahead by {@link LockedFile.prepareTemporary}. */
  prepared?: PreparedTemporary;
}

/** The file being mutated: pinned, queued and locked for the duration of `FileEngine.mutate`. */
export class LockedFile {
  /** The pinned target; `stats` is the entry's `lstat` under the lock (undefined: it does not exist). */
  readonly target: AnchoredTarget;
  /** The tool's name, for messages. */
  readonly toolName: string;
  private readonly parts: LockedFileParts;
  /** `fstat` of the last opening; the mode a commit keeps. */
  private current: Stats | undefined;

  constructor(parts: LockedFileParts) {
    this.parts = parts;
    this.target = parts.target;
    this.toolName = parts.request.toolName;
    this.current = parts.target.stats;
  }

  /** The entry's `lstat` under the lock; undefined when it does not exist. */
  get stats(): Stats | undefined {
    return this.target.stats;
  }

  /** The canonical path (the file-state key). */
  get key(): string {
    return this.target.canonicalPath;
  }

  /** The path as the model wrote it. */
  get displayPath(): string {
    return this.parts.request.resolved.displayPath;
  }

  /** Opens the file for reading (no symlink followed, no special file, the inode checked). */
  async open(): Promise<OpenedFile> {
    const opened = await openTarget(this.toolName, this.displayPath, this.target);
    this.current = opened.stats;
    return opened;
  }

  /** The current bytes in memory of their own (for a staleness hash). */
  async readBytes(): Promise<Uint8Array> {
    const { handle } = await this.open();
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /**
   * The whole file through the bundle's buffer pool (a pooled read reports
   * its progress to `onChunk`, see `ReadBufferPool.readWholeFile`). The
   * descriptor stays open until {@link FileContent.finish}, after the
   * commit: while it is open, the rename over the file does not drop the
   * old content's last reference, so the old content's pages are freed by
   * the close on the thread pool, after the answer, instead of inside the
   * rename (about 0.7 ms per 10 MB on ext4). The close is not awaited: the
   * descriptor is read-only, so there is nothing to lose.
   */
  async readWhole(onChunk?: ReadProgress): Promise<FileContent> {
    const { handle, stats } = await this.open();
    let read: PooledRead;
    try {
      read = await this.parts.environment.fastIo.readWholeFile(handle, stats.size, onChunk);
    } catch (error) {
      await handle.close();
      throw error;
    }
    let closed = false;
    return {
      bytes: read.bytes,
      stats,
      pooled: read.pooled,
      finish: async (pendingHash) => {
        // Pooled memory goes back to the pool now, or once the off-thread hash has copied what it reads.
        if (pendingHash && read.pooled) read.releaseWhen(pendingHash.released);
        else read.release();
        if (closed) return;
        closed = true;
        void handle.close().catch(() => undefined);
      },
    };
  }

  /** Counts the line endings of `bytes` (the bundle's WebAssembly kernel). */
  countLineEndings(bytes: Uint8Array): LineEndingCounts {
    return this.parts.environment.fastIo.countLineEndings(bytes);
  }

  /** `text` as UTF-8, in pooled memory when it is large (see `FastIo.encodeText`). */
  encodeText(text: string): Promise<PooledRead> {
    return this.parts.environment.fastIo.encodeText(text);
  }

  /** Forgets what this registry recorded of the file (after a refused automatic read). */
  forget(): void {
    this.parts.environment.state.clear(this.key);
  }

  /** The versions this registry recorded of the file: the last full-text one, and the latest of any kind. */
  recorded(): { fullText: FullTextSnapshot | undefined; latest: FileVersion | undefined } {
    const state = this.parts.environment.state;
    return { fullText: state.getLatestFullText(this.key), latest: state.getLatest(this.key) };
  }

  /**
   * Refuses with `stale_file` when the file (`current`) is not the version
   * the model saw (`expected`); `readCurrent` gives the bytes when only a
   * hash can tell.
   */
  assertUnchanged(expected: FileVersion, current: Stats, readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void> {
    const { state, fastIo } = this.parts.environment;
    return assertNotStale({
      toolName: this.toolName,
      displayPath: this.displayPath,
      expected,
      current,
      readCurrent,
      pendingHash: state.getPendingHash(this.key, expected),
      hash: fastIo.contentHash,
    });
  }

  /** Starts creating the write's temporary file on the thread pool (see `prepareTemporary`), with the file's permissions. */
  prepareTemporary(): PreparedTemporary {
    return prepareTemporary(this.target.directory, this.target.name, this.mode());
  }

  /**
   * Writes the new content atomically (keeping the file's permissions), with
   * the checkpoint's pre-image and post-image recorded around it, and records
   * the new version in the file state.
   */
  async commit(request: CommitRequest): Promise<WrittenVersion> {
    const { environment, hashing } = this.parts;
    const written = await this.recordChange(
      () => [this.key],
      () =>
        commitAtomically({
          directory: this.target.directory,
          name: this.target.name,
          pieces: request.pieces,
          mode: this.mode(),
          fastIo: environment.fastIo,
          hashing,
          countLines: request.countLines,
          transfer: request.transfer,
          prepared: request.prepared,
        }),
    );
    environment.state.recordTextMutation(this.key, written.version, written.pendingHash);
    return written;
  }

  /** Runs `change` with `paths` (canonical, parents first) recorded in the call's checkpoint before and after it. */
  recordChange<T>(paths: () => Promise<readonly string[]> | readonly string[], change: () => Promise<T>): Promise<T> {
    return withCheckpointRecording(this.parts.request.context, { displayPath: this.displayPath }, paths, change);
  }

  /** Permission bits to keep: those of the file as last seen; undefined for a new file. */
  private mode(): number | undefined {
    return this.current ? Number(this.current.mode) & 0o7777 : undefined;
  }
}
