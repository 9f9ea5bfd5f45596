/**
 * One file of a patch as ApplyPatch holds it while the patch is applied:
 * pinned and locked (the local disk's `FileEngine.mutate`, or a workspace's
 * `mutateInWorkspace`), so the checks made while planning stay true until
 * every file is committed. A leaf module: the planner and the committer
 * see only this interface, whatever the file system behind it.
 */
import type { ResolvedPath } from "@agent-tools/core";
import type { FileVersion, FullTextSnapshot } from "../shared/file-state.js";
import type { LineEndingCounts } from "../shared/line-ending-count.js";

/** What a path is, as seen under its lock (`lstat` for a deletion, `stat` otherwise). */
export type HeldEntryType = "missing" | "file" | "directory" | "symlink" | "other";

/** How a patch touches one path. */
export type PatchRole = "add" | "delete" | "update" | "move-destination";

/** A file of the patch, held under its lock. */
export interface HeldPatchFile {
  /** The path as resolved by the path policy (its `displayPath` is what the model wrote). */
  readonly resolved: ResolvedPath;
  /** The canonical path: the file-state key and the checkpoint path. */
  readonly key: string;
  /** What is there now. */
  readonly type: HeldEntryType;
  /** Permission bits of what is there now; undefined when missing. */
  readonly mode: number | undefined;
  /** Size in bytes of what is there now (under the lock); 0 when missing. */
  readonly size: number;
  /** Refuses (`not_a_file`, `unsupported_target`) unless a regular file is there. */
  assertRegular(): void;
  /** The `not_found` error with did-you-mean candidates. */
  notFound(): Promise<Error>;
  /** The whole current content. */
  read(): Promise<Buffer>;
  /** The versions this registry recorded of the file. */
  recorded(): { fullText: FullTextSnapshot | undefined; latest: FileVersion | undefined };
  /** Refuses with `stale_file` unless the file now is the version the model saw. */
  assertUnchanged(expected: FileVersion, readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void>;
  /** Counts the line endings of `bytes`. */
  countLineEndings(bytes: Uint8Array): LineEndingCounts;
  /**
   * Replaces (or creates) the file atomically with `pieces`, permission bits
   * `mode` (undefined: a new file's default), and records the new version in
   * the file state.
   */
  write(pieces: readonly Buffer[], mode: number | undefined): Promise<FullTextSnapshot>;
  /** Removes the file and forgets it in the file state. */
  remove(): Promise<void>;
  /** True when nothing is at the path now (checked again right before a new file is written: a writer that ignores the lock may have made one). */
  isMissingNow(): Promise<boolean>;
}

/** Where one path of a patch is held: a function that holds it around `run` (nested for every path of the patch). */
export interface PatchPathHolder {
  /** The path as resolved. */
  readonly resolved: ResolvedPath;
  readonly role: PatchRole;
  /** The lock order key: the file system and the canonical path (sorted, so two patches never lock in opposite orders). */
  readonly order: string;
  /** The key of the bundle's mutation queue the hold waits on (two holds of one key in one patch would wait on each other). */
  readonly queueKey: string;
  /** Holds the path (its queue, its lock) while `run` runs. */
  hold<T>(run: (file: HeldPatchFile) => Promise<T>): Promise<T>;
  /** Removes the directories the hold created for a new file and that are still empty (after a patch that changed nothing). */
  removeCreatedDirectories(): Promise<void>;
}
