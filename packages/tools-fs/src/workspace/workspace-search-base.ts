/**
 * Where List, Glob and Grep search on a workspace: the `path` argument
 * (default the workspace root) resolved and canonicalised through the
 * workspace, with the local tools' answers for a missing path, a symlink
 * loop, a dangling symlink or a special file.
 */
import { posix } from "node:path";
import type { ToolContext } from "@agent-tools/core";
import { type Workspace, WorkspaceError } from "@agent-tools/core/workspace";
import { type SearchBase, danglingSymlinkError, fileBaseDisplay, specialFileError, symlinkLoopError, walkExclusions } from "../search/search-base.js";
import { isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";

/**
 * The search base of a workspace call; undefined when the path is one of
 * the host's own folders (`skill://`, uploads), which the local code serves
 * in this process: List, Glob and Grep (its TypeScript engine, never this
 * host's ripgrep) walk that folder on this disk, reading no ignore file
 * above it (`SearchBase.ignoreBoundary`).
 */
export async function resolveWorkspaceSearchBase(
  call: { toolName: string; intent: "list" | "search"; context: ToolContext; workspace: Workspace },
  input: string | undefined,
): Promise<SearchBase | undefined> {
  const { toolName, intent, context, workspace } = call;
  const resolved = context.paths.resolve(input ?? ".", { intent, label: `${toolName} path` });
  if (!isWorkspaceScope(resolved)) return undefined;
  try {
    let target: Awaited<ReturnType<typeof workspaceTarget>>;
    try {
      target = await workspaceTarget(call, resolved);
    } catch (error) {
      if (error instanceof WorkspaceError && error.code === "symlink_loop") throw symlinkLoopError(toolName, resolved);
      throw error;
    }
    if (!target.exists) {
      if (target.isSymlink) throw danglingSymlinkError(toolName, resolved);
      throw await workspaceNotFound(call, resolved);
    }
    const info = await workspace.fs.stat(target.key);
    if (info.type === "directory") {
      return { resolved, directory: target.key, displayDirectory: resolved.displayPath, excluded: walkExclusions(context, target.key) };
    }
    if (info.type !== "file") throw specialFileError(toolName, resolved, "special file");
    return {
      resolved,
      directory: posix.dirname(target.key),
      displayDirectory: fileBaseDisplay(resolved),
      fileName: posix.basename(target.key),
      excluded: new Set(),
    };
  } catch (error) {
    throw await workspaceToolError(call, error, resolved);
  }
}
