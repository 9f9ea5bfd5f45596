/**
 * Write, Edit and Delete of a workspace file: one writer per file (the
 * bundle's mutation queue, then the workspace's own lock of the file around
 * the read, the staleness check and the commit), the same staleness check
 * and file state as on the local disk, and the commit through the
 * workspace's atomic write (the file's permissions kept).
 */
import { posix } from "node:path";
import { ToolError, type ToolContext } from "@agent-tools/core";
import type { WorkspaceStats } from "@agent-tools/core/workspace";
import { withCheckpointRecording } from "../file-engine/checkpoint-recording.js";
import { assertNotStale } from "../file-engine/staleness.js";
import type { FileVersion, FullTextSnapshot } from "../shared/file-state.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type WorkspaceTarget, lstatOrUndefined, statOrUndefined } from "./workspace-call.js";

/** One mutation of one workspace file. */
export interface WorkspaceMutationRequest {
  /** Tool name for messages. */
  readonly toolName: string;
  /** The target, canonicalised through the workspace. */
  readonly target: WorkspaceTarget;
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Follow a symlink in the last component (Write, Edit); false for Delete. */
  readonly followLeaf: boolean;
  /** Create missing parent directories first (Write), as a lock beside the file may need its directory. */
  readonly createParents?: boolean;
}

/**
 * The paths a change of the target touches, for its checkpoint: the target,
 * and for a directory Delete removes everything below it too (listed
 * without following symlinks, parents before their children).
 */
async function touchedPaths(request: WorkspaceMutationRequest, stats: WorkspaceStats | undefined): Promise<string[]> {
  const { fs } = request.target.workspace;
  const paths = [request.target.key];
  if (request.followLeaf || stats?.type !== "directory") return paths;
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await fs.readdir(directory)) {
      const child = posix.join(directory, entry.name);
      paths.push(child);
      if (entry.type === "directory") await walk(child);
    }
  };
  await walk(request.target.key);
  return paths;
}

/** A workspace file held for one mutation (see {@link mutateInWorkspace}). */
export class WorkspaceLockedFile {
  constructor(
    private readonly request: WorkspaceMutationRequest,
    /** `stat` (Write, Edit) or `lstat` (Delete) under the lock; undefined: nothing there. */
    readonly stats: WorkspaceStats | undefined,
  ) {}

  /** The tool's name, for messages. */
  get toolName(): string {
    return this.request.toolName;
  }

  /** The canonical path (the file-state key). */
  get key(): string {
    return this.request.target.key;
  }

  /** The path as the model wrote it. */
  get displayPath(): string {
    return this.request.target.resolved.displayPath;
  }

  /** The file's current bytes. */
  readBytes(): Promise<Buffer> {
    return this.request.target.workspace.fs.readFile(this.key, { signal: this.request.context.signal });
  }

  /** Counts the line endings of `bytes` (the bundle's WebAssembly kernel). */
  countLineEndings(bytes: Uint8Array): LineEndingCounts {
    return this.request.environment.fastIo.countLineEndings(bytes);
  }

  /** Forgets what this registry recorded of the file (after a refused automatic read). */
  forget(): void {
    this.request.environment.state.clear(this.key);
  }

  /** The versions this registry recorded of the file. */
  recorded(): { fullText: FullTextSnapshot | undefined; latest: FileVersion | undefined } {
    const state = this.request.environment.state;
    return { fullText: state.getLatestFullText(this.key), latest: state.getLatest(this.key) };
  }

  /**
   * Refuses with `stale_file` when the file is not the version the model
   * saw. A workspace has no ctime or inode and its mtime may be whole
   * seconds (SFTP), so an equal mtime and size proves nothing: whenever the
   * version seen has a hash, the hash of the current bytes decides.
   */
  assertUnchanged(expected: FileVersion, current: WorkspaceStats, readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void> {
    const { state, fastIo } = this.request.environment;
    const hashDecides = expected.contentHash !== "";
    return assertNotStale({
      toolName: this.toolName,
      displayPath: this.displayPath,
      // NaN never equals a ctime: the mtime shortcut is skipped and the hash compared.
      expected: hashDecides ? { ...expected, ctimeMs: Number.NaN } : expected,
      current: { mtimeMs: current.mtimeMs, size: current.size, ctimeMs: 0, ino: 0 },
      readCurrent,
      pendingHash: state.getPendingHash(this.key, expected),
      hash: fastIo.contentHash,
    });
  }

  /**
   * Writes `pieces` over the file atomically through the workspace (the
   * file's permissions kept, a new file 0644 less the umask), records the
   * new version (hash and line count computed here) in the file state and
   * returns it.
   */
  async commit(pieces: readonly Buffer[]): Promise<FullTextSnapshot> {
    const { target, environment, context } = this.request;
    const hasher = environment.fastIo.createHasher();
    for (const piece of pieces) hasher.update(piece);
    const contentHash = hasher.digest();
    const totalLines = hasher.lineCount();
    const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces as Buffer[]);
    await target.workspace.fs.writeFileAtomic(this.key, data, { signal: context.signal });
    const after = await target.workspace.fs.stat(this.key);
    const version: FullTextSnapshot = { mtimeMs: after.mtimeMs, size: data.length, contentHash, totalLines };
    environment.state.recordTextMutation(this.key, version);
    return version;
  }
}

/**
 * Runs one mutation of a workspace file: after earlier mutations of the
 * same file in this registry (in call order), holding the workspace's lock
 * of the file (so no other writer, in this process or another host, changes
 * it between the staleness check and the commit). Inside a checkpoint, the
 * state of every path it touches is recorded through the workspace before
 * the change and after it, under the lock.
 */
export function mutateInWorkspace<T>(request: WorkspaceMutationRequest, run: (file: WorkspaceLockedFile) => Promise<T>): Promise<T> {
  const { target, context, environment } = request;
  return environment.mutations.run(target.key, async () => {
    if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it changed anything.");
    if (request.createParents) await target.workspace.fs.mkdir(posix.dirname(target.key), { recursive: true });
    const lock = await target.workspace.fs.lock(target.key, { signal: context.signal });
    try {
      const stats = request.followLeaf ? await statOrUndefined(target.workspace, target.key) : await lstatOrUndefined(target.workspace, target.key);
      return await withCheckpointRecording(
        context,
        { displayPath: target.resolved.displayPath, workspace: target.workspace },
        () => touchedPaths(request, stats),
        () => run(new WorkspaceLockedFile(request, stats)),
      );
    } finally {
      await lock.release();
    }
  });
}
