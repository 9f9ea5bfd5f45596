/**
 * Small file-system steps of the workspace subagent worktrees, all through
 * `workspace.fs` (never this host's disk): existence, kind, and removal of a
 * folder tree that never follows a symlink.
 */
import { posix } from "node:path";
import { type Workspace, WorkspaceError, type WorkspaceStats } from "@agent-tools/core/workspace";
import type { RefusalEntryKind, RefusalEntryReader } from "./git-subagent-worktree-refusals.js";

/** `lstat` of a workspace path, undefined when nothing is there (or a folder on the way is a file). */
export async function lstatIn(workspace: Workspace, target: string): Promise<WorkspaceStats | undefined> {
  try {
    return await workspace.fs.lstat(target);
  } catch (error) {
    if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory")) return undefined;
    throw error;
  }
}

/** True when something (a link too) is at `target`. */
export async function existsIn(workspace: Workspace, target: string): Promise<boolean> {
  return (await lstatIn(workspace, target)) !== undefined;
}

/**
 * Removes `target` and everything under it: files and links unlinked (a
 * link is never followed), folders emptied then removed. A missing target
 * is fine.
 */
export async function removeTreeIn(workspace: Workspace, target: string): Promise<void> {
  const stats = await lstatIn(workspace, target);
  if (stats === undefined) return;
  if (stats.type !== "directory") {
    await workspace.fs.unlink(target);
    return;
  }
  for (const entry of await workspace.fs.readdir(target)) await removeTreeIn(workspace, posix.join(target, entry.name));
  await workspace.fs.rmdir(target);
}

/** The refusals' view of a workspace: `lstat` kinds (no `fifo`/`socket`/`device` distinction over the port: `other` reads as a device). */
export function workspaceEntryReader(workspace: Workspace): RefusalEntryReader {
  return {
    async kindOf(absolute): Promise<RefusalEntryKind> {
      const stats = await lstatIn(workspace, absolute);
      if (stats === undefined) return "missing";
      if (stats.type === "symlink") return "link";
      if (stats.type === "directory") return "folder";
      return stats.type === "file" ? "file" : "device";
    },
    readlink: (absolute) => workspace.fs.readlink(absolute),
  };
}
