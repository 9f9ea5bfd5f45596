/**
 * The crash journal of an apply on a non-local workspace: before the first
 * write, every path's state before and after (`pre`, `post`) is saved with
 * `writeFileAtomic` in the repository's worktree folder
 * (`.agent-tools-subagents/<repository name>/apply-journal.json`); it is
 * removed once the apply is done or fully undone. A journal found later (a
 * host killed mid-apply) is rolled back: each path that holds its `post`
 * gets its `pre` back, one that holds neither is left alone and reported.
 *
 * The journal is signed (HMAC-SHA256) with a key this host keeps (the SDK:
 * in its `dataDir`): the model's commands on the workspace can write the
 * folder, so a journal that does not carry this host's signature is never
 * acted on. It is read as data besides: one whose paths leave the work
 * tree (absolute, `..`, a `.git` segment), whose links leave it, or that
 * names another repository is set aside untouched.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { posix } from "node:path";
import { symlinkStaysInside } from "@agent-tools/file-io/internal";
import type { Workspace } from "@agent-tools/core/workspace";
import { isGitEntryName } from "../domain/apply-refusal.js";
import type { SubagentApplyRecovery } from "../ports/subagent-worktrees.js";
import type { ApplyPlan } from "./apply-plan.js";
import { type EntryImage, holdsImage, readTreeEntry } from "./contained-entries.js";
import { existsIn } from "./workspace-subagent-fs.js";
import { workspaceTree, writeImageIn } from "./workspace-subagent-tree.js";

/** The journal's file name in the repository's worktree folder. */
export const WORKSPACE_JOURNAL_FILE = "apply-journal.json";
/**
 * Most bytes of a journal (256 MiB): an apply whose journal would be larger
 * is refused before its first write, and a larger file found in the folder
 * (the model's commands can write there) is set aside unread, never read
 * whole into this host's memory.
 */
export const MAX_WORKSPACE_JOURNAL_BYTES = 256 * 1024 * 1024;

type StoredImage =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly mode: number; readonly base64: string }
  | { readonly kind: "link"; readonly target: string };

/** What the journal holds. */
/**
 * The host's record of the journals it wrote and has not finished with (the
 * SDK keeps it in its `dataDir`): a signed journal of an apply that already
 * finished (copied by the model's commands and planted again) is not open,
 * so it is never acted on.
 */
export interface WorkspaceJournalLedger {
  /** Records that journal `id` is about to be written. */
  opened(id: string): Promise<void>;
  /** Records that journal `id` is done with (removed, or rolled back). */
  closed(id: string): Promise<void>;
  /** Whether `id` was opened and not closed. */
  isOpen(id: string): Promise<boolean>;
}

/** A ledger in this process's memory (a journal is recovered only by the instance that wrote it). */
export function memoryJournalLedger(): WorkspaceJournalLedger {
  const open = new Set<string>();
  return {
    opened: async (id) => void open.add(id),
    closed: async (id) => void open.delete(id),
    isOpen: async (id) => open.has(id),
  };
}

export interface WorkspaceApplyJournal {
  readonly version: 1;
  /** Random, per apply: the ledger's name for it. */
  readonly id: string;
  readonly repositoryRoot: string;
  readonly entries: readonly { readonly path: string; readonly pre: EntryImage; readonly post: EntryImage }[];
}

function store(image: EntryImage): StoredImage {
  if (image.kind === "file") return { kind: "file", mode: image.mode, base64: image.bytes.toString("base64") };
  return image;
}

function load(value: unknown, relative: string): EntryImage | string {
  const image = value as { kind?: unknown; mode?: unknown; base64?: unknown; target?: unknown } | null;
  if (image?.kind === "missing") return { kind: "missing" };
  if (image?.kind === "file" && typeof image.mode === "number" && Number.isInteger(image.mode) && typeof image.base64 === "string") {
    return { kind: "file", mode: image.mode & 0o777, bytes: Buffer.from(image.base64, "base64") };
  }
  if (image?.kind === "link" && typeof image.target === "string") {
    return symlinkStaysInside(relative, image.target) ? { kind: "link", target: image.target } : `${relative}: a link leaving the work tree`;
  }
  return `${relative}: not a state an apply writes`;
}

/** Why `relative` is not a path an apply writes, or undefined. */
function pathProblem(relative: unknown): string | undefined {
  if (typeof relative !== "string" || relative === "" || relative.includes("\0") || relative.startsWith("/")) return "a path that is not repository-relative";
  const segments = relative.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) return `${relative}: a path with an empty, . or .. segment`;
  if (segments.some(isGitEntryName)) return `${relative}: a path into a .git entry`;
  return undefined;
}

/** The HMAC-SHA256 (hex) of `body` under `key`. */
function macOf(key: Uint8Array, body: string): string {
  return createHmac("sha256", key).update(body, "utf8").digest("hex");
}

function macMatches(key: Uint8Array, body: string, mac: string): boolean {
  const expected = Buffer.from(macOf(key, body), "hex");
  const given = Buffer.from(mac, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The journal of `plan`'s writes in the repository at `repositoryRoot`. */
export function journalOfPlan(repositoryRoot: string, plan: ApplyPlan): WorkspaceApplyJournal {
  return {
    version: 1,
    id: randomBytes(12).toString("hex"),
    repositoryRoot,
    entries: plan.writes.map((write) => ({ path: write.path, pre: write.pre, post: write.post })),
  };
}

/** Saves the journal in `folder` (atomically). */
export async function writeWorkspaceJournal(workspace: Workspace, folder: string, journal: WorkspaceApplyJournal, key: Uint8Array): Promise<void> {
  const stored = { ...journal, entries: journal.entries.map((entry) => ({ path: entry.path, pre: store(entry.pre), post: store(entry.post) })) };
  // Signed with the host's key: the folder is writable by the model's commands, and only a journal this host wrote is acted on.
  const body = JSON.stringify(stored);
  const bytes = Buffer.from(JSON.stringify({ mac: macOf(key, body), body }), "utf8");
  if (bytes.length > MAX_WORKSPACE_JOURNAL_BYTES) throw new Error(`it would be ${bytes.length} bytes, more than ${MAX_WORKSPACE_JOURNAL_BYTES}`);
  await workspace.fs.writeFileAtomic(posix.join(folder, WORKSPACE_JOURNAL_FILE), bytes, { mode: 0o600 });
}

/** Removes the journal of `folder` (gone already is fine). */
export async function removeWorkspaceJournal(workspace: Workspace, folder: string): Promise<void> {
  const file = posix.join(folder, WORKSPACE_JOURNAL_FILE);
  if (await existsIn(workspace, file)) await workspace.fs.unlink(file);
}

/** The journal in `folder`: undefined when there is none, `{ invalid }` when it is not one this version would act on. */
export async function readWorkspaceJournal(
  workspace: Workspace,
  folder: string,
  key: Uint8Array,
): Promise<WorkspaceApplyJournal | { readonly invalid: string } | undefined> {
  const file = posix.join(folder, WORKSPACE_JOURNAL_FILE);
  const stats = await workspace.fs.lstat(file).catch(() => undefined);
  if (stats === undefined) return undefined;
  if (stats.type !== "file") return { invalid: "the journal is not a regular file" };
  const tooLarge = { invalid: `the journal is larger than ${MAX_WORKSPACE_JOURNAL_BYTES} bytes, more than an apply writes` };
  if (stats.size > MAX_WORKSPACE_JOURNAL_BYTES) return tooLarge;
  let parsed: { version?: unknown; id?: unknown; repositoryRoot?: unknown; entries?: unknown };
  try {
    // Read no further than the cap, in case the file grew since the lstat.
    const bytes = await workspace.fs.readFile(file, { end: MAX_WORKSPACE_JOURNAL_BYTES + 1 });
    if (bytes.length > MAX_WORKSPACE_JOURNAL_BYTES) return tooLarge;
    const signed = JSON.parse(bytes.toString("utf8")) as { mac?: unknown; body?: unknown } | null;
    if (typeof signed?.body !== "string" || typeof signed.mac !== "string" || !macMatches(key, signed.body, signed.mac)) {
      return { invalid: "the journal is not signed with this host's key (not one this host wrote)" };
    }
    parsed = JSON.parse(signed.body) as typeof parsed;
  } catch {
    return { invalid: "the journal is not JSON" };
  }
  if (parsed?.version !== 1 || typeof parsed.id !== "string" || typeof parsed.repositoryRoot !== "string" || !Array.isArray(parsed.entries)) {
    return { invalid: "not a journal this version wrote" };
  }
  const entries: { path: string; pre: EntryImage; post: EntryImage }[] = [];
  for (const raw of parsed.entries as { path?: unknown; pre?: unknown; post?: unknown }[]) {
    const problem = pathProblem(raw?.path);
    if (problem !== undefined) return { invalid: problem };
    const relative = raw.path as string;
    const pre = load(raw.pre, relative);
    const post = load(raw.post, relative);
    if (typeof pre === "string") return { invalid: pre };
    if (typeof post === "string") return { invalid: post };
    entries.push({ path: relative, pre, post });
  }
  return { version: 1, id: parsed.id as string, repositoryRoot: parsed.repositoryRoot, entries };
}

/**
 * Rolls back the journal of `folder`, if any, for the repository at
 * `repositoryRoot`, then removes it; a journal that is not valid or names
 * another repository is renamed aside (`apply-journal.json.unreadable-<time>`)
 * untouched. Call it holding the repository's apply lock.
 */
export async function recoverWorkspaceApply(
  workspace: Workspace,
  folder: string,
  repositoryRoot: string,
  key: Uint8Array,
  ledger: WorkspaceJournalLedger,
): Promise<SubagentApplyRecovery | undefined> {
  const journal = await readWorkspaceJournal(workspace, folder, key);
  if (journal === undefined) return undefined;
  const replayed = !("invalid" in journal) && !(await ledger.isOpen(journal.id));
  if ("invalid" in journal || journal.repositoryRoot !== repositoryRoot || replayed) {
    const refused =
      "invalid" in journal
        ? journal.invalid
        : replayed
          ? "it is the journal of an apply this host already finished (planted again)"
          : `it is the journal of ${journal.repositoryRoot}`;
    const aside = `${WORKSPACE_JOURNAL_FILE}.unreadable-${Date.now()}`;
    await workspace.fs.rename(posix.join(folder, WORKSPACE_JOURNAL_FILE), posix.join(folder, aside));
    return { repositoryRoot, rolledBack: [], conflicts: [], unreadableJournal: aside, journalRefused: refused };
  }
  const report = await rollBackWorkspaceJournal(workspace, journal);
  // Conflicting paths are reported and left as they are: the journal has done what it can.
  await removeWorkspaceJournal(workspace, folder);
  await ledger.closed(journal.id);
  return { repositoryRoot, ...report };
}

/** Puts back the `pre` state of every path that holds its `post` (last first); a path holding neither is a conflict, left alone. */
export async function rollBackWorkspaceJournal(
  workspace: Workspace,
  journal: WorkspaceApplyJournal,
): Promise<{ rolledBack: string[]; conflicts: { path: string; reason: string }[] }> {
  const tree = workspaceTree(workspace, journal.repositoryRoot);
  const rolledBack: string[] = [];
  const conflicts: { path: string; reason: string }[] = [];
  for (const entry of [...journal.entries].reverse()) {
    try {
      const now = await readTreeEntry(tree, entry.path);
      if (holdsImage(now, entry.pre)) continue;
      if (!holdsImage(now, entry.post)) {
        conflicts.push({ path: entry.path, reason: "changed since the apply: holds neither its state before nor after it" });
        continue;
      }
      await writeImageIn(workspace, journal.repositoryRoot, entry.path, entry.pre);
      rolledBack.push(entry.path);
    } catch (error) {
      conflicts.push({ path: entry.path, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { rolledBack: rolledBack.reverse(), conflicts };
}
