/**
 * The plan of an apply, computed before anything is written: for every path
 * the worktree changed, what the parent holds now, what the child wants, and
 * what the parent will hold afterwards, or why the path is a conflict.
 *
 * A path is written only when the parent still holds the version the child
 * started from (then it gets the child's version) or when a line-based 3-way
 * merge of the parent's and the child's text changes succeeds without a
 * conflict. Anything else (overlapping changes, a binary file changed on
 * both sides, a file deleted on one side and changed on the other, a symlink
 * or folder where a file was) is a conflict: the apply writes nothing.
 */
import path from "node:path";
import { type ContainedTree, symlinkStaysInside } from "@agent-tools/file-io/internal";
import { CHECKOUT_CONVERSIONS, type CheckoutConversion, RAW } from "./checkout-conversions.js";
import { type EntryImage, type TreeEntry, readTreeEntry } from "./contained-entries.js";
import { mergeLines } from "./merge-lines.js";
import { type FileChange, type PatchSide, baseContent, blobIdMatches, splitLines } from "./worktree-file-changes.js";

/** One path the apply changes: its state now (checked again right before the write) and the state it gets. */
export interface PlannedWrite {
  /** Repository-relative, `/` separators. */
  readonly path: string;
  readonly pre: EntryImage;
  readonly post: EntryImage;
  /** True when the post state is a merge of the parent's and the child's changes. */
  readonly merged: boolean;
}

/** A path that cannot be applied, and why. */
export interface ApplyConflict {
  readonly path: string;
  readonly reason: string;
}

/** What {@link planApply} found. */
export interface ApplyPlan {
  /** Deletions deepest path first, then writes shallowest path first (the order to apply them in). */
  readonly writes: readonly PlannedWrite[];
  readonly conflicts: readonly ApplyConflict[];
  /** Folders the writes create (shallowest first), removed again by a rollback. */
  readonly createdDirectories: readonly string[];
}

/** Sides git may describe that are never applied. */
const UNSUPPORTED = new Set(["submodule", "unknown"]);

function executableMode(mode: number, executable: boolean): number {
  return executable ? mode | ((mode & 0o444) >> 2) : mode & ~0o111;
}

function isExecutable(mode: number): boolean {
  return (mode & 0o111) !== 0;
}

function asImage(entry: TreeEntry): EntryImage | undefined {
  return entry.kind === "missing" || entry.kind === "file" || entry.kind === "link" ? entry : undefined;
}

/** The bytes git hashes for an entry (a symlink's target), or undefined when it holds none. */
function contentOf(entry: TreeEntry | EntryImage): Buffer | undefined {
  if (entry.kind === "file") return entry.bytes;
  if (entry.kind === "link") return Buffer.from(entry.target, "utf8");
  return undefined;
}

/**
 * True when `entry` holds the kind and executable bit of `side`, and its
 * content (a file's bytes as `conversion` turns them into blob form):
 * `content` when known (exact), else the blob the patch names.
 */
function holdsSide(entry: TreeEntry, side: PatchSide, content: Buffer | undefined, conversion: CheckoutConversion = RAW): boolean {
  if (side.kind === "missing") return entry.kind === "missing";
  if (side.kind !== entry.kind) return false;
  if (entry.kind === "file" && isExecutable(entry.mode) !== side.executable) return false;
  const actual = entry.kind === "file" ? conversion(entry.bytes) : contentOf(entry);
  if (actual === undefined) return false;
  if (content !== undefined) return actual.equals(content);
  return side.oid !== undefined && blobIdMatches(actual, side.oid);
}

/** True when the parent already holds the child's version (a file's permission bits aside, its executable bit not). */
function holdsChild(parent: TreeEntry, child: EntryImage, executable: boolean): boolean {
  if (child.kind === "file") return parent.kind === "file" && parent.bytes.equals(child.bytes) && isExecutable(parent.mode) === executable;
  if (child.kind === "link") return parent.kind === "link" && parent.target === child.target;
  return parent.kind === "missing";
}

/** Whether a text merge can look at these bytes: no NUL in the first 8000 bytes (git's test). */
function isText(bytes: Buffer): boolean {
  return !bytes.subarray(0, 8000).includes(0);
}

/** The child's version of a path and the conversion its file needs to be the blob the patch names (undefined for a deletion). */
interface ChildVersion {
  readonly image: EntryImage;
  readonly conversion: CheckoutConversion | undefined;
}

/**
 * The child's version of a path, read from its worktree and checked against
 * the patch. A file is checked in the form git hashed it: its raw bytes,
 * else with the line ending or `$Id$` conversion of a checkout (the worktree
 * was checked out with the repository's `.gitattributes`).
 */
async function childImage(worktree: ContainedTree, change: FileChange, umaskBits: number): Promise<ChildVersion | string> {
  const { after } = change;
  if (after.kind === "missing") return { image: { kind: "missing" }, conversion: undefined };
  const entry = await readTreeEntry(worktree, change.path);
  const content = contentOf(entry);
  const conversion =
    after.oid === undefined
      ? content === undefined
        ? undefined
        : RAW
      : entry.kind === "file"
        ? CHECKOUT_CONVERSIONS.find((candidate) => holdsSide(entry, after, undefined, candidate))
        : holdsSide(entry, after, undefined)
          ? RAW
          : undefined;
  if (
    conversion === undefined ||
    (entry.kind !== "file" && entry.kind !== "link") ||
    (entry.kind === "file" && isExecutable(entry.mode) !== after.executable)
  ) {
    return "it changed in the subagent's worktree after its changes were read";
  }
  if (entry.kind === "link") {
    return symlinkStaysInside(change.path, entry.target)
      ? { image: entry, conversion: RAW }
      : "it is a symlink pointing outside the repository, which is never created";
  }
  return { image: { kind: "file", bytes: entry.bytes, mode: (after.executable ? 0o777 : 0o666) & ~umaskBits }, conversion };
}

/** The merge of a file both sides changed, or why it conflicts. */
function mergeFile(change: FileChange, parent: TreeEntry & { kind: "file" }, child: EntryImage & { kind: "file" }): EntryImage | string {
  const base = baseContent(change, child.bytes);
  if (base === undefined) {
    return change.hunks === null
      ? "it was changed in the workspace too, and a binary file cannot be merged"
      : "it was changed in the workspace too, and its changes cannot be merged";
  }
  let bytes: Buffer | undefined;
  if (parent.bytes.equals(base)) bytes = child.bytes;
  else if (child.bytes.equals(base)) bytes = parent.bytes;
  else if (isText(base) && isText(parent.bytes) && isText(child.bytes)) {
    const lines = (content: Buffer) => splitLines(content.toString("latin1"));
    const merged = mergeLines(lines(base), lines(parent.bytes), lines(child.bytes));
    if (merged === undefined) return "it was changed in the workspace too, and the changes overlap (a 3-way merge conflicts)";
    bytes = Buffer.from(merged.join(""), "latin1");
  } else return "it was changed in the workspace too, and a binary file cannot be merged";
  // The executable bit: the child's change of it, unless the parent changed it already.
  const executable = isExecutable(parent.mode) === change.before.executable ? change.after.executable : isExecutable(parent.mode);
  return { kind: "file", bytes, mode: executableMode(parent.mode, executable) };
}

/** Why a path whose parent state is not the base cannot take the child's version. */
function conflictReason(change: FileChange, parent: TreeEntry): string {
  if (parent.kind === "blocked") return parent.reason;
  if (parent.kind === "directory") return "it is a folder in the workspace";
  if (parent.kind === "other") return "it is a special file (FIFO, socket or device) in the workspace";
  if (parent.kind === "link" && change.before.kind !== "link") return "it is a symlink in the workspace";
  if (parent.kind === "missing") return "it was deleted in the workspace since the subagent started";
  if (change.before.kind === "missing") return "it was created in the workspace too, with other content";
  if (change.after.kind === "missing") return "it was changed in the workspace since the subagent started, and the subagent deletes it";
  return "it was changed in the workspace since the subagent started";
}

/** The decision for one path: a write, nothing (already there), or a conflict reason. */
async function planPath(
  parentTree: ContainedTree,
  worktree: ContainedTree,
  change: FileChange,
  umaskBits: number,
  deletedFiles: ReadonlySet<string>,
): Promise<PlannedWrite | ApplyConflict | undefined> {
  const conflict = (reason: string): ApplyConflict => ({ path: change.path, reason });
  if (UNSUPPORTED.has(change.before.kind) || UNSUPPORTED.has(change.after.kind)) return conflict("submodules and entries git cannot describe are not applied");
  let parent = await readTreeEntry(parentTree, change.path);
  // Under a file this apply deletes (a file becoming a folder), the path is free once the deletion ran.
  if (parent.kind === "blocked" && ancestorsOf(change.path).some((folder) => deletedFiles.has(folder))) parent = { kind: "missing" };
  const version = await childImage(worktree, change, umaskBits);
  if (typeof version === "string") return conflict(version);
  const { image: child, conversion } = version;
  const pre = asImage(parent);
  if (pre === undefined) return conflict(conflictReason(change, parent));
  if (holdsChild(parent, child, change.after.executable)) return undefined;
  // The base content rebuilt from the child's (in blob form) and the hunks where the patch is text (exact), else the blob id.
  const base = baseContent(change, child.kind === "file" ? (conversion ?? RAW)(child.bytes) : contentOf(child));
  // The parent's file compared in the same form as the child's (a deletion has no child file: any checkout form).
  const conversions = conversion === undefined ? CHECKOUT_CONVERSIONS : [conversion];
  if (conversions.some((candidate) => holdsSide(parent, change.before, base, candidate))) {
    // The parent still holds the base: the child's version, keeping the permission bits a file had.
    const post = child.kind === "file" && parent.kind === "file" ? { ...child, mode: executableMode(parent.mode, change.after.executable) } : child;
    return { path: change.path, pre, post, merged: false };
  }
  if (parent.kind === "file" && child.kind === "file" && change.before.kind === "file") {
    if (conversion !== RAW) return conflict("it was changed in the workspace too, and git converts its line endings or $Id$, so it is not merged");
    const merged = mergeFile(change, parent, child);
    return typeof merged === "string" ? conflict(merged) : { path: change.path, pre, post: merged, merged: true };
  }
  return conflict(conflictReason(change, parent));
}

/** `a/b/c` -> `["a", "a/b"]`. */
function ancestorsOf(relative: string): string[] {
  const parts = relative.split("/");
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join("/"));
}

const depth = (relative: string) => relative.split("/").length;

/**
 * Plans the apply of `changes` to the parent's work tree: reads the parent
 * (`parentTree`) and the child's worktree (`worktree`), both without
 * following symlinks. `umaskBits` narrows the permission bits of new files.
 */
export async function planApply(options: {
  readonly parentTree: ContainedTree;
  readonly worktree: ContainedTree;
  readonly changes: readonly FileChange[];
  readonly umaskBits: number;
}): Promise<ApplyPlan> {
  const deletedFiles = new Set(options.changes.filter((change) => change.after.kind === "missing").map((change) => change.path));
  const writes: PlannedWrite[] = [];
  const conflicts: ApplyConflict[] = [];
  for (const change of options.changes) {
    const decision = await planPath(options.parentTree, options.worktree, change, options.umaskBits, deletedFiles);
    if (decision === undefined) continue;
    if ("reason" in decision) conflicts.push(decision);
    else writes.push(decision);
  }
  const createdDirectories = new Set<string>();
  for (const write of writes) {
    if (write.post.kind === "missing") continue;
    for (const folder of ancestorsOf(write.path)) {
      if (createdDirectories.has(folder)) continue;
      const stats = deletedFiles.has(folder) ? undefined : await options.parentTree.lstat(folder).catch(() => undefined);
      if (stats === undefined || !stats.isDirectory()) createdDirectories.add(folder);
    }
  }
  const deletions = writes.filter((write) => write.post.kind === "missing").sort((left, right) => depth(right.path) - depth(left.path));
  const others = writes.filter((write) => write.post.kind !== "missing").sort((left, right) => depth(left.path) - depth(right.path));
  return {
    writes: [...deletions, ...others],
    conflicts,
    createdDirectories: [...createdDirectories].sort((left, right) => depth(left) - depth(right) || (left < right ? -1 : left > right ? 1 : 0)),
  };
}

/** The repository-relative path `relative` under `root`, as an absolute path. */
export function absoluteIn(root: string, relative: string): string {
  return path.join(root, ...relative.split("/"));
}
