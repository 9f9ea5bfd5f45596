/**
 * Delete on a workspace that is not the local disk: a file, a symlink (the
 * link itself) or a directory with everything below it, removed through
 * the workspace's file system (never following a symlink); the answer is
 * the local Delete's.
 */
import { posix } from "node:path";
import { type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import type { Workspace, WorkspaceFileSystem } from "@agent-tools/core/workspace";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";
import { mutateInWorkspace } from "./workspace-mutation.js";

/** One Delete call on a workspace. */
export interface WorkspaceDeleteCall<T> {
  readonly workspace: Workspace;
  readonly input: { path: string };
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Deletes a path of the host's own folders (`skill://`) as the local Delete does. */
  readonly local: (resolved: ResolvedPath) => Promise<T>;
}

/**
 * Removes `path` and, when it is a directory, everything below it, through
 * `fs`: entries are listed without following symlinks, a symlink is
 * unlinked itself, directories are removed once emptied.
 */
export async function removeWorkspaceTree(fs: WorkspaceFileSystem, path: string): Promise<void> {
  for (const entry of await fs.readdir(path)) {
    const child = posix.join(path, entry.name);
    if (entry.type === "directory") await removeWorkspaceTree(fs, child);
    else await fs.unlink(child);
  }
  await fs.rmdir(path);
}

/** Delete of `input.path` in the workspace. */
export async function deleteInWorkspace<T>(call: WorkspaceDeleteCall<T>) {
  const { workspace, input, context, environment } = call;
  const errorCall = { toolName: "Delete", workspace, context, intent: "delete" as const };
  const resolved = context.paths.resolve(input.path, { intent: "delete", label: "Delete path" });
  if (!isWorkspaceScope(resolved)) return call.local(resolved);
  try {
    if (resolved.relativePath === "" && resolved.scope !== "external") {
      throw new ToolError(
        "unsupported_target",
        `Delete refused: ${resolved.displayPath} is the root directory itself. Delete files or folders inside it instead.`,
      );
    }
    const target = await workspaceTarget(errorCall, resolved);
    const targetKind = await mutateInWorkspace({ toolName: "Delete", target, context, environment, followLeaf: false }, async (file) => {
      const info = file.stats;
      if (!info) throw await workspaceNotFound(errorCall, resolved);
      if (info.type === "other") {
        throw new ToolError(
          "unsupported_target",
          `Delete refused: ${resolved.displayPath} is not a regular file. Only regular files, directories, or symlinks can be deleted.`,
        );
      }
      const kind: "file" | "directory" | "symlink" = info.type;
      if (kind === "directory") {
        await removeWorkspaceTree(workspace.fs, target.key);
        environment.state.clearUnder(target.key);
      } else {
        await workspace.fs.unlink(target.key);
        environment.state.clear(target.key);
        if (kind === "symlink") environment.state.clear(resolved.absolutePath);
      }
      return kind;
    });
    return {
      content: `Deleted ${targetKind}: ${resolved.displayPath}`,
      details: { kind: "delete" as const, path: resolved.displayPath, absolutePath: resolved.absolutePath, targetKind },
    };
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}
