/**
 * The refusals of an apply (see `domain/apply-refusal.ts`), found from a
 * worktree snapshot and the worktree's file system: `.git` entries, paths
 * outside the workspace, submodules, special files, and symbolic links that
 * leave the workspace once resolved: through the worktree's other links, and
 * through the links of the parent's workspace the patch leaves in place
 * (`x -> ext/secret` when the parent's own `ext` points elsewhere).
 * Nothing here follows a link: every step is an `lstat` or a `readlink` of a
 * path whose parents were checked to be real folders.
 */
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type ApplyRefusal, hasGitEntry, isGitEntryName } from "../domain/apply-refusal.js";
import type { SubagentWorktree } from "../ports/subagent-worktrees.js";
import type { WorktreeSnapshot } from "./worktree-snapshot-read.js";

/** Links followed while resolving one target, as the kernel's own limit (`ELOOP`). */
const MAX_LINK_HOPS = 40;
const GITLINK = "160000";
const SYMLINK = "120000";

const lstatOrUndefined = (target: string): Promise<Stats | undefined> => fs.lstat(target).catch(() => undefined);

/** Path segments of a link target (`\` too on Windows, where it separates). */
function segmentsOf(target: string): string[] {
  return target.split(process.platform === "win32" ? /[\\/]/ : "/");
}

/** What one workspace-relative path holds, as a link resolution sees it. */
type Entry = { readonly kind: "missing" | "folder" | "other" } | { readonly kind: "link"; readonly target: string };
/** Looks up a workspace-relative path (segments), following no link. */
type Lookup = (segments: readonly string[]) => Promise<Entry>;

/** What an entry is, as `lstat` tells it (no link followed). */
export type RefusalEntryKind = "missing" | "folder" | "file" | "link" | "fifo" | "socket" | "device";

/**
 * How the refusals read a tree: `lstat` and `readlink` of absolute paths,
 * never following a link. Default: this host's disk; a non-local
 * workspace passes its own file system.
 */
export interface RefusalEntryReader {
  kindOf(absolute: string): Promise<RefusalEntryKind>;
  readlink(absolute: string): Promise<string>;
}

/** The {@link RefusalEntryReader} of this host's disk. */
const LOCAL_ENTRIES: RefusalEntryReader = {
  async kindOf(absolute) {
    const stats = await lstatOrUndefined(absolute);
    if (stats === undefined) return "missing";
    if (stats.isSymbolicLink()) return "link";
    if (stats.isDirectory()) return "folder";
    if (stats.isFile()) return "file";
    if (stats.isFIFO()) return "fifo";
    return stats.isSocket() ? "socket" : "device";
  },
  readlink: (absolute) => fs.readlink(absolute),
};

/** A {@link Lookup} of the tree under `root` as it is on disk. */
function diskLookup(root: string, entries: RefusalEntryReader): Lookup {
  return async (segments) => {
    const kind = await entries.kindOf(path.join(root, ...segments));
    if (kind === "missing") return { kind: "missing" };
    if (kind === "link") return { kind: "link", target: await entries.readlink(path.join(root, ...segments)) };
    return { kind: kind === "folder" ? "folder" : "other" };
  };
}

/**
 * A {@link Lookup} of the parent's workspace as the apply leaves it: a path
 * the patch writes or deletes as the worktree holds it; any other path as
 * the parent holds it (its own links included: a link of the parent's, say
 * `ext -> /elsewhere`, is followed), except folders the apply creates.
 */
function afterApplyLookup(worktree: Lookup, parent: Lookup, changed: ReadonlySet<string>): Lookup {
  return async (segments) => {
    const joined = segments.join("/");
    if (changed.has(joined)) return worktree(segments);
    const entry = await parent(segments);
    if (entry.kind !== "missing") return entry;
    for (const path of changed) if (path.startsWith(`${joined}/`)) return worktree(segments);
    return entry;
  };
}

/**
 * Where a symbolic link at `link` (relative to the workspace) with `target`
 * leads in the tree `lookup` describes: undefined when it stays inside the
 * workspace, else why not. Resolves like the kernel, component by
 * component, following the links it meets (their targets read with
 * `readlink`, never followed by the file system); once a component does not
 * exist the rest is taken literally.
 */
async function linkEscape(lookup: Lookup, link: string, target: string): Promise<string | undefined> {
  const absolute = (text: string) => path.posix.isAbsolute(text) || path.win32.isAbsolute(text);
  if (absolute(target)) return `-> ${target} (an absolute target)`;
  const stack = path.posix
    .dirname(link)
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".");
  const pending = segmentsOf(target);
  let hops = 0;
  let onDisk = true;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (stack.length === 0) return `-> ${target} (climbs out of the workspace)`;
      stack.pop();
      continue;
    }
    if (isGitEntryName(segment)) return `-> ${target} (leads into a .git entry)`;
    stack.push(segment);
    if (!onDisk) continue;
    const entry = await lookup(stack);
    if (entry.kind === "missing" || entry.kind === "other") onDisk = false;
    else if (entry.kind === "link") {
      hops += 1;
      if (hops > MAX_LINK_HOPS) return `-> ${target} (too many levels of symbolic links)`;
      if (absolute(entry.target)) return `-> ${target} (through ${stack.join("/")} -> ${entry.target}, an absolute target)`;
      stack.pop();
      pending.unshift(...segmentsOf(entry.target));
    }
  }
  return undefined;
}

/** What a changed path holds in the worktree now, its parents checked to be real folders; undefined when acceptable. */
async function entryProblem(worktreePath: string, relative: string, entries: RefusalEntryReader): Promise<string | undefined> {
  const segments = relative.split("/");
  for (let depth = 1; depth < segments.length; depth += 1) {
    const kind = await entries.kindOf(path.join(worktreePath, ...segments.slice(0, depth)));
    if (kind === "missing") return undefined; // deleted with its folder
    if (kind !== "folder") return `${segments.slice(0, depth).join("/")} is no longer a folder in the worktree`;
  }
  const kind = await entries.kindOf(path.join(worktreePath, ...segments));
  if (kind === "missing" || kind === "file" || kind === "link") return undefined;
  if (kind === "folder") return "a folder in the worktree";
  return `a ${kind}`;
}

/**
 * Every refused path among `paths` (repository-relative) of `snapshot`:
 * a `.git` entry, a path outside the worktree's workspace (`workdir`), a
 * submodule change, what is neither a file nor a link in the worktree, a
 * link whose target leaves the workspace, and what the snapshot left out.
 * Empty when the apply may go ahead.
 *
 * @example
 * const refusals = await findApplyRefusals(worktree, snapshot, ["src/a.ts"]);
 */
export async function findApplyRefusals(
  worktree: SubagentWorktree,
  snapshot: WorktreeSnapshot,
  paths: readonly string[],
  entries: RefusalEntryReader = LOCAL_ENTRIES,
): Promise<ApplyRefusal[]> {
  const offset = path.relative(worktree.path, worktree.workdir).split(path.sep).join("/");
  const workspacePrefix = offset === "" ? "" : `${offset}/`;
  const changes = new Map(snapshot.changes.map((change) => [change.path, change]));
  // Links resolve twice: in the worktree, and in the parent's workspace as the apply would leave it (the parent's own links included).
  const inWorkspace = new Set(paths.filter((changed) => changed.startsWith(workspacePrefix)).map((changed) => changed.slice(workspacePrefix.length)));
  const worktreeLookup = diskLookup(worktree.workdir, entries);
  const views = [worktreeLookup, afterApplyLookup(worktreeLookup, diskLookup(path.join(worktree.repositoryRoot, offset), entries), inWorkspace)];
  const refusals: ApplyRefusal[] = [];
  for (const changed of paths) {
    if (hasGitEntry(changed)) {
      refusals.push({ path: changed, reason: "git_entry", detail: "" });
      continue;
    }
    if (!changed.startsWith(workspacePrefix) || changed.split("/").includes("..")) {
      refusals.push({ path: changed, reason: "outside_workspace", detail: offset === "" ? "" : `the workspace is ${offset}/ of the repository` });
      continue;
    }
    const change = changes.get(changed);
    if (change !== undefined && (change.oldMode === GITLINK || change.newMode === GITLINK)) {
      refusals.push({ path: changed, reason: "submodule", detail: "" });
      continue;
    }
    const problem = await entryProblem(worktree.path, changed, entries);
    if (problem !== undefined) {
      refusals.push({ path: changed, reason: "special_file", detail: problem });
      continue;
    }
    if (change?.newMode === SYMLINK && change.linkTarget !== undefined) {
      const link = changed.slice(workspacePrefix.length);
      let leaves: string | undefined;
      for (const view of views) leaves ??= await linkEscape(view, link, change.linkTarget);
      if (leaves !== undefined) refusals.push({ path: changed, reason: "link_outside_workspace", detail: leaves });
    }
  }
  for (const excluded of snapshot.excluded) {
    const reason = hasGitEntry(excluded.path) ? "git_entry" : excluded.reason;
    refusals.push({ path: excluded.path, reason, detail: excluded.detail });
  }
  return refusals;
}
