import path from "node:path";
import { type FileChangeRequest, type FileCheckpointRecorder, SdkError, ToolError } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { type ContainedTree, openContainedTree } from "@agent-tools/file-io/internal";
import type { CheckpointEntry, CheckpointSummary, RewindConflict, RewindReport } from "../domain/checkpoint-types.js";
import { type FileImage, summarize } from "../domain/file-image.js";
import { type RewindAction, comparePaths, planRewind } from "../domain/rewind-plan.js";
import type { CheckpointStore } from "../ports/checkpoint-store.js";
import { ABSENT_IMAGE, readFileImage } from "./read-file-image.js";
import { removeEntry, restoreImage, sweepAbandonedTemporaries } from "./restore-file-image.js";
import { parseWorkspaceKey, readWorkspaceImage, removeWorkspaceEntry, restoreWorkspaceImage, workspaceKey } from "./workspace-file-image.js";

/** Options of {@link createFileCheckpoints}. */
export interface FileCheckpointsOptions {
  /** Where records live, or a function opening it on first use (called once; a failure is retried on the next use). */
  readonly store: CheckpointStore | (() => Promise<CheckpointStore>);
  /** The clock (ms since the epoch); default `Date.now`. */
  readonly now?: () => number;
}

/** One path a rewind finished with (see `RewindOptions.onProgress`). */
export interface RewindProgress {
  readonly path: string;
  readonly outcome: "restored" | "removed" | "conflict" | "unchanged";
}

/** Options of {@link FileCheckpoints.rewindCheckpoint}. */
export interface RewindOptions {
  /** Also restore paths changed by someone else since the checkpoint's change, overwriting that change. Default false. */
  readonly force?: boolean;
  /** Called after each path is done (restored and recorded as rewound, removed, found unchanged, or left as a conflict). */
  readonly onProgress?: (progress: RewindProgress) => void;
  /**
   * Rewind the files the checkpoint recorded in this workspace (one that is
   * not the local disk, e.g. `createSshWorkspace`), through its file
   * system, instead of this host's files. A rewind covers one place: the
   * checkpoint's paths of another workspace (or of this host) are reported
   * as conflicts naming where they were recorded, and left alone.
   */
  readonly workspace?: Workspace;
}

/** The recorder the file tools use, plus what a host needs to rewind and manage checkpoints. */
export interface FileCheckpoints extends FileCheckpointRecorder {
  /**
   * Puts every path the checkpoint changed back to its state before the
   * checkpoint: exact bytes and permission bits, symlink targets, deleted
   * directories; created files are removed. A path changed by someone else
   * since (its content, mode or kind differs from what the checkpoint's
   * last change left) is a conflict: reported and left alone, unless
   * `force`. Idempotent: a rewind interrupted at any moment (even by
   * SIGKILL) leaves every path either as it was or restored, and running it
   * again finishes the job. Do not run tools of the checkpoint meanwhile.
   * Rejects with `SdkError("invalid_options")` for an id that is not a
   * non-empty string; an unknown id gives an empty report.
   */
  rewindCheckpoint(checkpointId: string, options?: RewindOptions): Promise<RewindReport>;
  /** Every checkpoint with records, most recently recorded first. */
  listCheckpoints(): Promise<CheckpointSummary[]>;
  /** The records of one checkpoint, by path (pre-image bytes included). */
  listEntries(checkpointId: string): Promise<CheckpointEntry[]>;
  /** Forgets a checkpoint's records (the files are not touched); resolves how many paths it held. */
  discardCheckpoint(checkpointId: string): Promise<number>;
}

function checkId(checkpointId: unknown, method: string): string {
  if (typeof checkpointId !== "string" || checkpointId === "") {
    throw new SdkError(
      "invalid_options",
      `${method} needs the checkpoint id as a non-empty string, not ${JSON.stringify(checkpointId) ?? String(checkpointId)}.`,
    );
  }
  return checkpointId;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * File checkpoints over a {@link CheckpointStore}: give the result to a
 * registry as `ports.fileCheckpoints` (with `checkpoint: { id }` or a call's
 * `checkpointId`), and rewind a checkpoint with `rewindCheckpoint`.
 *
 * @example
 * const checkpoints = createFileCheckpoints({ store: await KyselyCheckpointStore.open(storage) });
 * const registry = createToolRegistry({ workdir, bundles: [createFsToolBundle()], ports: { fileCheckpoints: checkpoints } });
 * await registry.executeToolCall({ id: "1", name: "Write", arguments: { path: "a.txt", content: "hi" } }, { checkpointId: "turn-1" });
 * const report = await checkpoints.rewindCheckpoint("turn-1"); // { removed: ["/repo/a.txt"], ... }
 */
export function createFileCheckpoints(options: FileCheckpointsOptions): FileCheckpoints {
  const now = options.now ?? Date.now;
  let opening: Promise<CheckpointStore> | undefined;
  const store = (): Promise<CheckpointStore> => {
    if (typeof options.store !== "function") return Promise.resolve(options.store);
    const open = options.store;
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  // Rewinds of one checkpoint run one after the other within this process.
  const rewinds = new Map<string, Promise<unknown>>();

  async function rewind(checkpointId: string, rewindOptions: RewindOptions): Promise<RewindReport> {
    const workspace = remoteWorkspaceOf(rewindOptions.workspace);
    if (workspace !== undefined) return rewindIn(workspaceSurface(workspace), checkpointId, rewindOptions);
    // Every read and write of the rewind goes through one tree at `/` that follows no symlink on the way:
    // a folder the checkpoint recorded that is a symlink now (e.g. swapped by a command) is a conflict, even forced.
    const tree = openContainedTree("/");
    try {
      return await rewindIn(localSurface(tree), checkpointId, rewindOptions);
    } finally {
      tree.close();
    }
  }

  async function rewindIn(surface: RewindSurface, checkpointId: string, rewindOptions: RewindOptions): Promise<RewindReport> {
    const records = await store();
    const { entries, keyOf, foreign } = splitEntries(await records.listEntries(checkpointId), surface.label);
    const current = new Map<string, ReturnType<typeof summarize>>();
    const redirected = new Map<string, string>();
    for (const entry of entries) {
      if (entry.rewoundAt !== undefined) continue;
      try {
        current.set(entry.path, summarize(await surface.read(entry.path)));
      } catch (error) {
        if (error instanceof ToolError && error.code === "out_of_bounds") {
          redirected.set(entry.path, "a folder on its path is a symlink now, so the path no longer names the recorded file; left alone (also with force)");
        }
        // Unreadable or of an odd type now: it matches neither image, so it is a conflict.
        current.set(entry.path, { kind: "file", mode: -1, sha256: "unreadable", linkTarget: "" });
      }
    }
    const planned = planRewind(entries, (file) => current.get(file) ?? ABSENT_IMAGE, { force: rewindOptions.force === true });
    const actions = planned.map((action): RewindAction => {
      const reason = redirected.get(action.entry.path);
      return reason === undefined ? action : { type: "conflict", entry: action.entry, reason };
    });
    await surface.sweep(actions);
    const restored: string[] = [];
    const removed: string[] = [];
    const conflicts: RewindConflict[] = [...foreign];
    const unchanged: string[] = [];
    const progress = (file: string, outcome: RewindProgress["outcome"]) => rewindOptions.onProgress?.({ path: file, outcome });
    for (const action of actions) {
      const file = action.entry.path;
      if (action.type === "unchanged") {
        // Not marked rewound: a later checkpoint's rewind may bring back a state this one must then undo.
        unchanged.push(file);
        progress(file, "unchanged");
        continue;
      }
      if (action.type === "conflict") {
        conflicts.push({ path: file, reason: action.reason });
        progress(file, "conflict");
        continue;
      }
      try {
        if (action.type === "remove") await surface.remove(file);
        else await surface.restore(file, action.entry.pre);
      } catch (error) {
        conflicts.push({ path: file, reason: `could not be ${action.type === "remove" ? "removed" : "restored"}: ${errorMessage(error)}` });
        progress(file, "conflict");
        continue;
      }
      await records.markRewound(checkpointId, [keyOf(file)], now());
      if (action.type === "remove") removed.push(file);
      else restored.push(file);
      progress(file, action.type === "remove" ? "removed" : "restored");
    }
    const sorted = (list: string[]) => list.sort(comparePaths);
    return {
      checkpointId,
      restored: sorted(restored),
      removed: sorted(removed),
      conflicts: conflicts.sort((left, right) => comparePaths(left.path, right.path)),
      unchanged: sorted(unchanged),
    };
  }

  return {
    async beforeChange(request: FileChangeRequest) {
      const records = await store();
      const key = recordKey(request);
      if (await records.hasPendingPreImage(request.checkpointId, key)) return;
      const pre = await readImageOf(request);
      await records.putPreImage({
        checkpointId: request.checkpointId,
        path: key,
        toolName: request.toolName,
        callId: request.callId,
        pre,
        recordedAt: now(),
      });
    },
    async afterChange(request: FileChangeRequest) {
      const records = await store();
      const post = summarize(await readImageOf(request));
      await records.setPostImage(request.checkpointId, recordKey(request), post);
    },
    async rewindCheckpoint(checkpointId, rewindOptions = {}) {
      const id = checkId(checkpointId, "rewindCheckpoint");
      const previous = rewinds.get(id) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => rewind(id, rewindOptions));
      const tail = run.catch(() => undefined);
      rewinds.set(id, tail);
      void tail.then(() => {
        if (rewinds.get(id) === tail) rewinds.delete(id);
      });
      return run;
    },
    async listCheckpoints() {
      return (await store()).listCheckpoints();
    },
    async listEntries(checkpointId) {
      return (await store()).listEntries(checkId(checkpointId, "listEntries"));
    },
    async discardCheckpoint(checkpointId) {
      return (await store()).deleteCheckpoint(checkId(checkpointId, "discardCheckpoint"));
    },
  };
}

/** Sweeps abandoned temporary files of every path of the rewind (left by a rewind or a file tool killed mid-write). */
async function sweepFor(tree: ContainedTree, actions: readonly RewindAction[]): Promise<void> {
  const byDirectory = new Map<string, Set<string>>();
  for (const action of actions) {
    const directory = path.dirname(action.entry.path);
    let names = byDirectory.get(directory);
    if (names === undefined) byDirectory.set(directory, (names = new Set()));
    names.add(path.basename(action.entry.path));
  }
  for (const [directory, names] of byDirectory) await sweepAbandonedTemporaries(tree, directory, names);
}

/** The workspace of a request or rewind when it is not the local disk (a local one reads this host's files as before). */
function remoteWorkspaceOf(workspace: Workspace | undefined): Workspace | undefined {
  if (workspace === undefined) return undefined;
  const shaped =
    workspace !== null &&
    typeof workspace === "object" &&
    typeof workspace.label === "string" &&
    typeof workspace.fs === "object" &&
    workspace.fs !== null &&
    typeof workspace.capabilities === "object" &&
    workspace.capabilities !== null;
  if (!shaped)
    throw new SdkError("invalid_options", "workspace must be a Workspace ({ kind, label, root, fs, capabilities, close }), e.g. createSshWorkspace(...).", {
      option: "workspace",
    });
  return workspace.capabilities.localPaths ? undefined : workspace;
}

/** The store key of a request's path: the path itself on this host, else the workspace's key (see `workspaceKey`). */
function recordKey(request: FileChangeRequest): string {
  const workspace = remoteWorkspaceOf(request.workspace);
  return workspace === undefined ? request.path : workspaceKey(workspace.label, request.path);
}

/** What a request's path holds now, on this host or through its workspace. */
function readImageOf(request: FileChangeRequest): Promise<FileImage> {
  const workspace = remoteWorkspaceOf(request.workspace);
  return workspace === undefined ? readFileImage(request.path) : readWorkspaceImage(workspace, request.path);
}

/** Where a rewind reads and writes: this host's disk (through a tree at `/`) or one workspace. */
interface RewindSurface {
  /** The workspace's label; undefined for this host. */
  readonly label: string | undefined;
  read(path: string): Promise<FileImage>;
  restore(path: string, image: FileImage): Promise<void>;
  remove(path: string): Promise<void>;
  sweep(actions: readonly RewindAction[]): Promise<void>;
}

function localSurface(tree: ContainedTree): RewindSurface {
  return {
    label: undefined,
    read: (file) => readFileImage(file, tree),
    restore: (file, image) => restoreImage(tree, file, image),
    remove: (file) => removeEntry(tree, file),
    sweep: (actions) => sweepFor(tree, actions),
  };
}

function workspaceSurface(workspace: Workspace): RewindSurface {
  return {
    label: workspace.label,
    read: (file) => readWorkspaceImage(workspace, file),
    restore: (file, image) => restoreWorkspaceImage(workspace, file, image),
    remove: (file) => removeWorkspaceEntry(workspace, file),
    // The workspace's atomic write cleans up its own temporary files.
    sweep: async () => undefined,
  };
}

/**
 * The entries of the rewind's place (this host, or the workspace labelled
 * `label`) with their plain paths, the store key of each, and the entries
 * recorded elsewhere as conflicts naming where.
 */
function splitEntries(
  all: readonly CheckpointEntry[],
  label: string | undefined,
): { entries: CheckpointEntry[]; keyOf: (path: string) => string; foreign: RewindConflict[] } {
  const entries: CheckpointEntry[] = [];
  const keys = new Map<string, string>();
  const foreign: RewindConflict[] = [];
  for (const entry of all) {
    const place = parseWorkspaceKey(entry.path);
    if (place?.label === label || (place === undefined && label === undefined)) {
      const plain = place?.path ?? entry.path;
      entries.push(place === undefined ? entry : { ...entry, path: plain });
      keys.set(plain, entry.path);
      continue;
    }
    if (entry.rewoundAt !== undefined) continue;
    const where =
      place === undefined
        ? "a file of this host: rewind it without options.workspace"
        : `recorded in the workspace ${place.label}: rewind it with that workspace as options.workspace`;
    foreign.push({ path: entry.path, reason: `${where}; left alone` });
  }
  return { entries, keyOf: (file) => keys.get(file) ?? file, foreign };
}
