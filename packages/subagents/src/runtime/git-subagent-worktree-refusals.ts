/**
 * The refusals of an apply (see `domain/apply-refusal.ts`), found from a
 * worktree snapshot and the worktree's file system: `.git` entries, paths
 * outside the workspace, submodules, special files, and symbolic links that
 * leave the workspace once resolved (through the worktree's other links).
 * Nothing here follows a link: every step is an `lstat` or a `readlink` of a
 * path whose parents were checked to be real folders.
 */
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type ApplyRefusal, hasGitEntry, isGitEntryName } from "../domain/apply-refusal.js";
import type { SubagentWorktree } from "../ports/subagent-worktrees.js";
import type { WorktreeSnapshot } from "./untrusted-worktree-git.js";

/** Links followed while resolving one target, as the kernel's own limit (`ELOOP`). */
const MAX_LINK_HOPS = 40;
const GITLINK = "160000";
const SYMLINK = "120000";

const lstatOrUndefined = (target: string): Promise<Stats | undefined> => fs.lstat(target).catch(() => undefined);

/** Path segments of a link target (`\` too on Windows, where it separates). */
function segmentsOf(target: string): string[] {
  return target.split(process.platform === "win32" ? /[\\/]/ : "/");
}

/**
 * Where a symbolic link at `link` (relative to `root`) with `target` leads:
 * undefined when it stays inside `root`, else why not. Resolves like the
 * kernel, component by component, following the links it meets in the
 * worktree (their targets read with `readlink`, never followed by the file
 * system); once a component does not exist the rest is taken literally.
 */
async function linkEscape(root: string, link: string, target: string): Promise<string | undefined> {
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
    const stats = await lstatOrUndefined(path.join(root, ...stack));
    if (stats === undefined) onDisk = false;
    else if (stats.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_LINK_HOPS) return `-> ${target} (too many levels of symbolic links)`;
      const next = await fs.readlink(path.join(root, ...stack));
      if (absolute(next)) return `-> ${target} (through ${stack.join("/")} -> ${next}, an absolute target)`;
      stack.pop();
      pending.unshift(...segmentsOf(next));
    } else if (!stats.isDirectory()) onDisk = false;
  }
  return undefined;
}

/** What a changed path holds in the worktree now, its parents checked to be real folders; undefined when acceptable. */
async function entryProblem(worktreePath: string, relative: string): Promise<string | undefined> {
  const segments = relative.split("/");
  for (let depth = 1; depth < segments.length; depth += 1) {
    const stats = await lstatOrUndefined(path.join(worktreePath, ...segments.slice(0, depth)));
    if (stats === undefined) return undefined; // deleted with its folder
    if (!stats.isDirectory()) return `${segments.slice(0, depth).join("/")} is no longer a folder in the worktree`;
  }
  const stats = await lstatOrUndefined(path.join(worktreePath, ...segments));
  if (stats === undefined || stats.isFile() || stats.isSymbolicLink()) return undefined;
  if (stats.isDirectory()) return "a folder in the worktree";
  if (stats.isFIFO()) return "a fifo";
  if (stats.isSocket()) return "a socket";
  return "a device";
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
export async function findApplyRefusals(worktree: SubagentWorktree, snapshot: WorktreeSnapshot, paths: readonly string[]): Promise<ApplyRefusal[]> {
  const offset = path.relative(worktree.path, worktree.workdir).split(path.sep).join("/");
  const workspacePrefix = offset === "" ? "" : `${offset}/`;
  const changes = new Map(snapshot.changes.map((change) => [change.path, change]));
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
    const problem = await entryProblem(worktree.path, changed);
    if (problem !== undefined) {
      refusals.push({ path: changed, reason: "special_file", detail: problem });
      continue;
    }
    if (change?.newMode === SYMLINK && change.linkTarget !== undefined) {
      const leaves = await linkEscape(worktree.workdir, changed.slice(workspacePrefix.length), change.linkTarget);
      if (leaves !== undefined) refusals.push({ path: changed, reason: "link_outside_workspace", detail: leaves });
    }
  }
  for (const excluded of snapshot.excluded) {
    const reason = hasGitEntry(excluded.path) ? "git_entry" : excluded.reason;
    refusals.push({ path: excluded.path, reason, detail: excluded.detail });
  }
  return refusals;
}
