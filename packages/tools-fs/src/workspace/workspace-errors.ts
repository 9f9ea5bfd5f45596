/**
 * Errors of the file tools on a workspace: a `WorkspaceError` becomes the
 * `ToolError` the local tool gives for the same failure (same code, same
 * words), and a missing path gets its did-you-mean candidates by listing
 * directories through the workspace's file system.
 */
import { posix } from "node:path";
import { type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import { quoteForMessage, shortenForMessage } from "@agent-tools/core/internal";
import { type Workspace, WorkspaceError } from "@agent-tools/core/workspace";
import { presentName, rankSimilarNames } from "../shared/did-you-mean.js";
import { notFoundErrorWith, toFsToolError } from "../shared/fs-errors.js";

/** Where an error arose: the tool, its workspace and call. */
export interface WorkspaceErrorCall {
  readonly toolName: string;
  readonly workspace: Workspace;
  readonly context: ToolContext;
}

/** Node's errno for each workspace code whose local message is the same. */
const ERRNO_OF: Partial<Record<WorkspaceError["code"], string>> = {
  not_a_directory: "ENOTDIR",
  is_a_directory: "EISDIR",
  permission_denied: "EACCES",
  symlink_loop: "ELOOP",
};

/**
 * Up to five existing siblings of the first missing component of the path
 * (below its root), as display paths: what the local tools suggest, listed
 * through the workspace. Any failure to list gives no suggestion.
 */
export async function suggestInWorkspace(workspace: Workspace, resolved: ResolvedPath, context: ToolContext): Promise<string[]> {
  const relative = posix.relative(resolved.rootPath, resolved.absolutePath);
  if (relative === "" || relative.startsWith("..")) return [];
  const parts = relative.split("/");
  let directory = resolved.rootPath;
  for (let index = 0; index < parts.length; index += 1) {
    const name = parts[index]!;
    let entries: string[];
    try {
      entries = (await workspace.fs.readdir(directory)).map((entry) => entry.name);
    } catch {
      return [];
    }
    const present = presentName(entries, name);
    if (present !== undefined) {
      directory = posix.join(directory, present);
      continue;
    }
    const rest = parts.slice(index + 1);
    return rankSimilarNames(entries, name).map((entry) => context.paths.display(posix.join(directory, entry, ...rest)));
  }
  return [];
}

/** The local tools' `not_found` error, with did-you-mean candidates found in the workspace. */
export async function workspaceNotFound(call: WorkspaceErrorCall, resolved: ResolvedPath): Promise<ToolError> {
  return notFoundErrorWith(call.toolName, resolved, await suggestInWorkspace(call.workspace, resolved, call.context));
}

/**
 * Turns any error of a workspace tool call into a {@link ToolError}: a
 * `ToolError` passes through; a `WorkspaceError` gets the local tool's
 * message for the same failure (`not_found` with did-you-mean,
 * `out_of_bounds` for a symlink leading out of the root, `unavailable` when
 * the workspace cannot be reached, `not_a_directory` when creating a file's
 * parents finds a file in the way).
 */
export async function workspaceToolError(call: WorkspaceErrorCall, error: unknown, resolved: ResolvedPath | undefined): Promise<ToolError> {
  if (error instanceof ToolError) return error;
  if (!(error instanceof WorkspaceError)) return toFsToolError(call.toolName, error, resolved, call.context);
  const { toolName, workspace, context } = call;
  const target = resolved?.displayPath ?? "the path";
  switch (error.code) {
    case "not_found":
      if (resolved) return workspaceNotFound(call, resolved);
      return new ToolError("not_found", `${toolName} failed: ${target} does not exist.`);
    case "out_of_bounds": {
      const canonical = typeof error.details.canonicalPath === "string" ? error.details.canonicalPath : target;
      const where = resolved?.scope === "root" ? `root://${resolved.alias}` : `the workspace (${resolved?.rootPath ?? workspace.root})`;
      return new ToolError(
        "out_of_bounds",
        `${toolName} path ${quoteForMessage(resolved?.input ?? target)} resolves through a symlink to ${shortenForMessage(canonical)}, outside ${where}. Symlinks may not lead out of the workspace or a granted root.`,
        { details: { canonicalPath: shortenForMessage(canonical) } },
      );
    }
    case "locked":
      return new ToolError(
        "conflict",
        `${toolName} failed: another process has been modifying ${target} for too long (its lock in the workspace is held). Retry later.`,
        { details: { path: target } },
      );
    case "connection":
    case "closed":
    case "host_key":
      return new ToolError(
        "unavailable",
        `${toolName} failed on ${target}: the workspace ${workspace.label} cannot be reached (${error.message}). Retry later; if it keeps failing, ask the user to check the connection.`,
        { details: { path: target, workspace: workspace.label, reason: error.code } },
      );
    case "exists":
      // Creating a file's missing parents ran into a file where a directory is needed: the local Write's ENOTDIR.
      if (error.details.operation === "mkdir") return toFsToolError(toolName, Object.assign(new Error(error.message), { code: "ENOTDIR" }), resolved, context);
      return new ToolError("io", `${toolName} failed on ${target}: ${error.message}.`);
    case "unsupported":
      return new ToolError("unsupported_target", `${toolName} failed on ${target}: ${error.message}.`, { details: { path: target } });
    default: {
      const errno = ERRNO_OF[error.code];
      if (errno) return toFsToolError(toolName, Object.assign(new Error(error.message), { code: errno }), resolved, context);
      return new ToolError("io", `${toolName} failed on ${target}: ${error.message}.`);
    }
  }
}
