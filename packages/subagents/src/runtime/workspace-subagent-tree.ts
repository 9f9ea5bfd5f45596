/**
 * A work tree on a non-local workspace as the subagent apply reads and
 * writes it: entries read without following a symlink on the way (every
 * folder `lstat`ed first), and states put in place atomically through the
 * workspace's file system.
 */
import { posix } from "node:path";
import { ToolError } from "@agent-tools/core";
import { type Workspace, WorkspaceError, type WorkspaceStats } from "@agent-tools/core/workspace";
import type { ContainedTree } from "@agent-tools/file-io/internal";
import type { EntryImage } from "./contained-entries.js";
import { lstatIn } from "./workspace-subagent-fs.js";

/** A path that changed between the plan and its write. */
export class ChangedMeanwhile extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path} changed in the workspace while the apply ran: ${reason}`);
  }
}

/** Node-like stats of a workspace entry, as `readTreeEntry` and `planApply` read them. */
function statsOf(stats: WorkspaceStats) {
  return {
    mode: stats.mode,
    size: stats.size,
    isFile: () => stats.type === "file",
    isDirectory: () => stats.type === "directory",
    isSymbolicLink: () => stats.type === "symlink",
  };
}

/**
 * The part of a `ContainedTree` the plan reads (`lstat`, `readlink`,
 * `readFile`, `readdir`), over a workspace folder: every folder on a path's
 * way is `lstat`ed first and a symlink or file there is refused as the
 * contained tree refuses it (`out_of_bounds`), so nothing is read through a
 * link. Without anchored opens a writer racing the check can still swap a
 * folder between the check and the read (see the workspace's race notes).
 */
export function workspaceTree(workspace: Workspace, root: string): ContainedTree {
  const absolute = (relative: string) => posix.join(root, ...relative.split("/"));
  const checkWay = async (relative: string): Promise<boolean> => {
    const parts = relative.split("/");
    for (let depth = 1; depth < parts.length; depth += 1) {
      const folder = parts.slice(0, depth).join("/");
      const stats = await lstatIn(workspace, absolute(folder));
      if (stats === undefined) return false;
      if (stats.type === "symlink") throw new ToolError("out_of_bounds", `${folder} on the way is a symlink`);
      if (stats.type !== "directory") throw new ToolError("out_of_bounds", `${folder} on the way is not a directory`);
    }
    return true;
  };
  const tree = {
    root,
    async lstat(relative: string) {
      if (!(await checkWay(relative))) return undefined;
      const stats = await lstatIn(workspace, absolute(relative));
      return stats === undefined ? undefined : statsOf(stats);
    },
    async readlink(relative: string) {
      await checkWay(relative);
      return workspace.fs.readlink(absolute(relative));
    },
    async readFile(relative: string) {
      await checkWay(relative);
      const stats = await workspace.fs.lstat(absolute(relative));
      if (stats.type !== "file") throw new ToolError("out_of_bounds", `${relative}: it is a symlink or not a file`);
      return workspace.fs.readFile(absolute(relative));
    },
    async readdir(relative: string) {
      await checkWay(`${relative}/x`);
      return (await workspace.fs.readdir(absolute(relative))).map((entry) => entry.name);
    },
  };
  return tree as unknown as ContainedTree;
}

/** Creates the folders of `relative` that are missing, refusing a symlink or file on the way. */
async function makeParents(workspace: Workspace, root: string, relative: string): Promise<void> {
  const parts = relative.split("/");
  for (let depth = 1; depth < parts.length; depth += 1) {
    const folder = posix.join(root, ...parts.slice(0, depth));
    const stats = await lstatIn(workspace, folder);
    if (stats === undefined) await workspace.fs.mkdir(folder);
    else if (stats.type !== "directory") throw new ChangedMeanwhile(relative, "a folder on its path became a symlink or a file while the apply ran");
  }
}

/** Puts `image` at `relative`: a file by `writeFileAtomic`, a link made beside it and renamed over it, missing by `unlink`. */
export async function writeImageIn(workspace: Workspace, root: string, relative: string, image: EntryImage): Promise<void> {
  const target = posix.join(root, ...relative.split("/"));
  if (image.kind === "missing") {
    await workspace.fs.unlink(target).catch((error: unknown) => {
      if (!(error instanceof WorkspaceError && error.code === "not_found")) throw error;
    });
    return;
  }
  await makeParents(workspace, root, relative);
  if (image.kind === "file") {
    await workspace.fs.writeFileAtomic(target, image.bytes, { mode: image.mode });
    return;
  }
  // The port makes no links: `ln -s` beside the target (a fresh name, never followed), then an atomic rename over it.
  const temporary = `${target}.agent-tools-link-${process.pid}-${Date.now().toString(36)}`;
  const child = workspace.processes?.spawn({ command: "ln", args: ["-s", "--", image.target, temporary], cwd: posix.dirname(target), extendEnv: true });
  if (child === undefined) throw new Error(`the workspace runs no processes, so the symlink ${relative} cannot be made`);
  const exit = await child.exited;
  await child.outputClosed;
  if (exit.exitCode !== 0) throw new Error(`the symlink ${relative} could not be made (ln exited ${exit.exitCode})`);
  try {
    await workspace.fs.rename(temporary, target);
  } catch (error) {
    await workspace.fs.unlink(temporary).catch(() => undefined);
    throw error;
  }
}
