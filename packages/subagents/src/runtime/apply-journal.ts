/**
 * The write-ahead journal of an apply, and its rollback.
 *
 * Before the first write to the parent, the apply saves (and fsyncs) every
 * path's state before and after it (the state before in full, the state
 * after as a hash) in `apply-journal.json` in the repository's git
 * directory (`.git/agent-tools/`, see `applyJournalFolderOf`), where the
 * model's tools cannot write; each path is then replaced atomically (temporary entry
 * and rename), and the journal is removed once all are done. A process
 * killed in between leaves the journal: the next apply to the repository
 * (or the next registry start, see `SubagentWorktrees.recover`) rolls the
 * paths back, so the parent ends as it was before the apply, never half
 * applied. A path someone changed since (it holds neither state) is left
 * alone and reported.
 */
import { createHash } from "node:crypto";
import { type ContainedTree, symlinkStaysInside } from "@agent-tools/file-io/internal";
import { hasGitEntry } from "../domain/apply-refusal.js";
import { type EntryImage, type TreeEntry, holdsImage, readTreeEntry, withFileLock, writeImage } from "./contained-entries.js";
import type { ApplyPlan } from "./apply-plan.js";

/** Name of the journal file in the repository's journal folder (`.git/agent-tools/`). */
export const APPLY_JOURNAL_FILE = "apply-journal.json";

/** A path's state after the apply, as the journal keeps it (a file by hash). */
type PostState =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly mode: number; readonly sha256: string }
  | { readonly kind: "link"; readonly target: string };

/** One path of a journal. */
export interface JournalEntry {
  readonly path: string;
  readonly pre: EntryImage;
  readonly post: PostState;
}

/** An apply in progress. */
export interface ApplyJournal {
  readonly version: 1;
  /** The process that writes the parent's files. */
  readonly pid: number;
  readonly repositoryRoot: string;
  readonly startedAt: number;
  readonly entries: readonly JournalEntry[];
  /** Folders the apply creates (shallowest first). */
  readonly createdDirectories: readonly string[];
}

/** What a rollback did. */
export interface RollbackReport {
  /** Paths put back to their state before the apply (restored or removed). */
  readonly rolledBack: readonly string[];
  /** Paths that hold neither state (changed by someone else since): left alone. */
  readonly conflicts: readonly { readonly path: string; readonly reason: string }[];
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function postOf(image: EntryImage): PostState {
  return image.kind === "file" ? { kind: "file", mode: image.mode, sha256: sha256(image.bytes) } : image;
}

/** The journal of applying `plan` to the work tree at `repositoryRoot`. */
export function journalOf(repositoryRoot: string, plan: ApplyPlan, startedAt: number): ApplyJournal {
  return {
    version: 1,
    pid: process.pid,
    repositoryRoot,
    startedAt,
    entries: plan.writes.map((write) => ({ path: write.path, pre: write.pre, post: postOf(write.post) })),
    createdDirectories: [...plan.createdDirectories],
  };
}

function serialise(journal: ApplyJournal): string {
  const entries = journal.entries.map((entry) => ({
    ...entry,
    pre: entry.pre.kind === "file" ? { kind: "file", mode: entry.pre.mode, base64: entry.pre.bytes.toString("base64") } : entry.pre,
  }));
  return JSON.stringify({ ...journal, entries });
}

/** Why `value` is no path an apply writes (relative, plain segments, no `.git` entry); undefined when it is one. */
function pathProblem(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return "a path is not a non-empty string";
  if (value.includes("\0")) return `${JSON.stringify(value)} holds a NUL`;
  const segments = value.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === ".."))
    return `${JSON.stringify(value)} is not a plain relative path (absolute, empty, . or .. segment)`;
  if (hasGitEntry(value)) return `${JSON.stringify(value)} is a .git entry`;
  return undefined;
}

/** Why a symlink at `link` to `target` is no link an apply writes (it leaves the tree or leads into `.git`); undefined when it is one. */
function linkProblem(link: string, target: string): string | undefined {
  if (!symlinkStaysInside(link, target)) return `${link} -> ${target} leaves the work tree`;
  if (hasGitEntry(target)) return `${link} -> ${target} leads into a .git entry`;
  return undefined;
}

/** A journal refused at recovery: why (it is left for a person, never acted on). */
export interface InvalidJournal {
  readonly invalid: string;
}

/**
 * The journal read back and checked: only entries the apply itself could
 * have written (plain relative paths without a `.git` segment, files with
 * permission bits only, symlinks that stay inside the tree, absence) pass;
 * anything else is {@link InvalidJournal} with the reason.
 */
function deserialise(text: string): ApplyJournal | InvalidJournal {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { invalid: "it is not JSON" };
  }
  if (typeof raw !== "object" || raw === null) return { invalid: "it is not a JSON object" };
  const journal = raw as { version?: unknown; pid?: unknown; repositoryRoot?: unknown; startedAt?: unknown; entries?: unknown; createdDirectories?: unknown };
  if (journal.version !== 1 || typeof journal.pid !== "number" || typeof journal.repositoryRoot !== "string")
    return { invalid: "it is not a journal of this version (version, pid or repositoryRoot)" };
  if (!Array.isArray(journal.entries) || !Array.isArray(journal.createdDirectories)) return { invalid: "entries or createdDirectories is not a list" };
  for (const folder of journal.createdDirectories) {
    const problem = pathProblem(folder);
    if (problem !== undefined) return { invalid: `created folder ${problem}` };
  }
  const entries: JournalEntry[] = [];
  for (const item of journal.entries as { path?: unknown; pre?: Record<string, unknown>; post?: Record<string, unknown> }[]) {
    if (typeof item !== "object" || item === null) return { invalid: "an entry is not an object" };
    const problem = pathProblem(item.path);
    if (problem !== undefined) return { invalid: problem };
    const entryPath = item.path as string;
    const pre = imageOf(entryPath, item.pre);
    if (typeof pre === "string") return { invalid: `${entryPath}: ${pre}` };
    const post = postStateOf(entryPath, item.post);
    if (typeof post === "string") return { invalid: `${entryPath}: ${post}` };
    entries.push({ path: entryPath, pre, post });
  }
  return {
    version: 1,
    pid: journal.pid,
    repositoryRoot: journal.repositoryRoot,
    startedAt: typeof journal.startedAt === "number" ? journal.startedAt : 0,
    entries,
    createdDirectories: journal.createdDirectories as string[],
  };
}

const isMode = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0o7777;

/** The state before of an entry, or why it is none an apply restores. */
function imageOf(link: string, raw: unknown): EntryImage | string {
  const image = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  if (image.kind === "missing") return { kind: "missing" };
  if (image.kind === "link" && typeof image.target === "string") return linkProblem(link, image.target) ?? { kind: "link", target: image.target };
  if (image.kind === "file" && isMode(image.mode) && typeof image.base64 === "string")
    return { kind: "file", mode: image.mode, bytes: Buffer.from(image.base64, "base64") };
  return "its state before is no file (with permission bits), symlink or absence";
}

/** The state after of an entry, or why it is none an apply writes. */
function postStateOf(link: string, raw: unknown): PostState | string {
  const post = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  if (post.kind === "missing") return { kind: "missing" };
  if (post.kind === "link" && typeof post.target === "string") return linkProblem(link, post.target) ?? { kind: "link", target: post.target };
  if (post.kind === "file" && isMode(post.mode) && typeof post.sha256 === "string") return { kind: "file", mode: post.mode, sha256: post.sha256 };
  return "its state after is no file (with permission bits), symlink or absence";
}

/** Saves the journal in `folder` durably (fsynced file and folder) before the apply writes anything. */
export async function writeJournal(folder: ContainedTree, journal: ApplyJournal): Promise<void> {
  await folder.writeFile(APPLY_JOURNAL_FILE, Buffer.from(serialise(journal), "utf8"), { mode: 0o600, durable: true, createParents: false });
}

/** The journal in `folder`: undefined when there is none, {@link InvalidJournal} when it is not one this version may act on. */
export async function readJournal(folder: ContainedTree): Promise<ApplyJournal | InvalidJournal | undefined> {
  let bytes: Buffer;
  try {
    bytes = await folder.readFile(APPLY_JOURNAL_FILE);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
  return deserialise(bytes.toString("utf8"));
}

/** Removes the journal (durably): the apply is done, or undone. */
export async function removeJournal(folder: ContainedTree): Promise<void> {
  await folder.remove(APPLY_JOURNAL_FILE, { durable: true });
}

/** Keeps an unreadable journal for a person to look at, out of the next apply's way. */
export async function setJournalAside(folder: ContainedTree, now: number): Promise<string> {
  const aside = `${APPLY_JOURNAL_FILE}.unreadable-${now}`;
  await folder.rename(APPLY_JOURNAL_FILE, aside);
  return aside;
}

function holdsPost(entry: TreeEntry, post: PostState): boolean {
  if (post.kind === "file") return entry.kind === "file" && entry.mode === post.mode && sha256(entry.bytes) === post.sha256;
  if (post.kind === "link") return entry.kind === "link" && entry.target === post.target;
  return entry.kind === "missing";
}

const depth = (relative: string) => relative.split("/").length;

/**
 * Puts every path of `journal` in `tree` (the parent's work tree) back to
 * its state before the apply, each under the file tools' lock of the path:
 * created files removed (deepest first), created folders removed when empty,
 * then changed and deleted paths restored (shallowest first). A path that
 * holds neither its state before nor the one the apply gave it is left
 * alone and reported. Idempotent: a rollback killed half-way is run again.
 */
export async function rollBack(tree: ContainedTree, journal: ApplyJournal): Promise<RollbackReport> {
  const rolledBack: string[] = [];
  const conflicts: { path: string; reason: string }[] = [];
  const restore: JournalEntry[] = [];
  const byDepth = [...journal.entries].sort((left, right) => depth(right.path) - depth(left.path));
  for (const entry of byDepth) {
    await withFileLock(tree.root, entry.path, async () => {
      const now = await readTreeEntry(tree, entry.path);
      if (holdsImage(now, entry.pre)) return;
      if (!holdsPost(now, entry.post)) {
        conflicts.push({ path: entry.path, reason: "it was changed again after the interrupted apply, so it was left as it is" });
        return;
      }
      if (entry.pre.kind !== "missing") {
        restore.push(entry);
        return;
      }
      await tree.remove(entry.path);
      rolledBack.push(entry.path);
    });
  }
  for (const folder of [...journal.createdDirectories].reverse()) {
    await tree.remove(folder).catch(() => false); // still holding something (another writer's file): kept
  }
  for (const entry of restore.reverse()) {
    await withFileLock(tree.root, entry.path, async () => {
      const now = await readTreeEntry(tree, entry.path);
      if (!holdsPost(now, entry.post)) {
        if (!holdsImage(now, entry.pre))
          conflicts.push({ path: entry.path, reason: "it was changed again after the interrupted apply, so it was left as it is" });
        return;
      }
      await writeImage(tree, entry.path, entry.pre);
      rolledBack.push(entry.path);
    });
  }
  return { rolledBack: rolledBack.sort(), conflicts };
}
