/**
 * The file tools on a workspace that is not the host's own disk: which
 * workspace a call works on, and where its `path` argument lands in it.
 * The path policy places the input lexically in its root; the canonical
 * form is then worked out through the workspace's file system
 * (`resolveInWorkspace`), which also refuses a symlink leading out of the
 * root.
 */
import { posix } from "node:path";
import { type PathIntent, type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import { type Workspace, type WorkspaceStats, resolveInWorkspace } from "@agent-tools/core/workspace";
import { workspaceToolError } from "./workspace-errors.js";

/**
 * The workspace a call works on when it is not the local disk (present in
 * `ports.workspace` without `capabilities.localPaths`); undefined: the
 * tools' local code paths apply.
 */
export function remoteWorkspace(context: ToolContext): Workspace | undefined {
  const workspace = context.ports.workspace;
  return workspace !== undefined && !workspace.capabilities.localPaths ? workspace : undefined;
}

/**
 * Whether a resolved path lives in the workspace: `skill://` and the uploads
 * folder are the host's own folders in its dataDir, reached on the local
 * disk whatever the workspace.
 */
export function isWorkspaceScope(resolved: ResolvedPath): boolean {
  return resolved.scope !== "skill" && resolved.scope !== "uploads";
}

/** A tool's path, placed in a workspace and canonicalised through it. */
export interface WorkspaceTarget {
  readonly workspace: Workspace;
  readonly resolved: ResolvedPath;
  /** The canonical path in the workspace: the file-state key. */
  readonly key: string;
  /** The whole path exists (following symlinks). */
  readonly exists: boolean;
  /** The last component is a symlink. */
  readonly isSymlink: boolean;
}

/** One file tool call on one `path` argument of a workspace. */
export interface WorkspacePathCall {
  readonly toolName: string;
  readonly workspace: Workspace;
  readonly context: ToolContext;
  readonly intent: PathIntent;
  /** Accept absolute paths outside every root (Image); on a workspace they still must stay inside its root. */
  readonly allowExternal?: boolean;
}

/** The root a resolved path must stay inside: its own root, or the workspace's for an external path. */
function containingRoot(workspace: Workspace, resolved: ResolvedPath): string {
  return resolved.scope === "external" ? workspace.root : resolved.rootPath;
}

/** Intents that change what they name. */
const WRITE_INTENTS: ReadonlySet<PathIntent> = new Set(["write", "edit", "delete"]);

/**
 * Refuses a change that lands in a repository's `.git` once resolved (a
 * symlink such as `cfg -> .git` in the workspace), as the local path policy
 * does: the lexical policy only saw the path as given.
 */
function refuseGitMetadataWrite(call: WorkspacePathCall, resolved: ResolvedPath, belowRoot: string): void {
  if (!WRITE_INTENTS.has(call.intent) || resolved.scope === "external") return;
  if (!belowRoot.split("/").some((name) => name.replace(/[. ]+$/, "").toLowerCase() === ".git")) return;
  throw new ToolError(
    "permission_denied",
    `${call.toolName} path ${resolved.displayPath} resolves into a repository's .git folder, which the file tools do not change: git runs the commands its config and hooks name. Use git commands to change the repository.`,
    { details: { reason: "git_metadata" } },
  );
}

/**
 * Places `resolved` in the workspace: canonicalised through its file system
 * (a symlink leaf kept for Delete), refused (`out_of_bounds`) when that
 * leaves the root.
 */
export async function workspaceTarget(call: WorkspacePathCall, resolved: ResolvedPath): Promise<WorkspaceTarget> {
  const { workspace, intent } = call;
  const root = containingRoot(workspace, resolved);
  const canonical = await resolveInWorkspace(workspace.fs, root, posix.normalize(resolved.absolutePath), {
    keepLeafSymlink: intent === "delete",
  });
  refuseGitMetadataWrite(call, resolved, posix.relative(root, canonical.canonicalPath));
  return { workspace, resolved, key: canonical.canonicalPath, exists: canonical.exists, isSymlink: canonical.isSymlink };
}

/**
 * Resolves the tool's `path` argument through the path policy, places it in
 * the workspace, and runs `run` on it; any error comes back as the
 * {@link ToolError} the local tool gives for the same failure.
 */
export async function onWorkspacePath<T>(call: WorkspacePathCall, input: string, run: (target: WorkspaceTarget) => Promise<T>): Promise<T> {
  const { toolName, context, intent } = call;
  const resolved = context.paths.resolve(input, { intent, label: `${toolName} path`, allowExternal: call.allowExternal });
  try {
    return await run(await workspaceTarget(call, resolved));
  } catch (error) {
    throw await workspaceToolError(call, error, resolved);
  }
}

/** `stat` (following symlinks) or undefined when nothing is there. */
export async function statOrUndefined(workspace: Workspace, path: string): Promise<WorkspaceStats | undefined> {
  try {
    return await workspace.fs.stat(path);
  } catch (error) {
    if ((error as { code?: string }).code === "not_found") return undefined;
    throw error;
  }
}

/** `lstat` (the link itself) or undefined when nothing is there. */
export async function lstatOrUndefined(workspace: Workspace, path: string): Promise<WorkspaceStats | undefined> {
  try {
    return await workspace.fs.lstat(path);
  } catch (error) {
    if ((error as { code?: string }).code === "not_found") return undefined;
    throw error;
  }
}

/**
 * Refuses anything but a regular file, as the local tools do: a directory
 * with `not_a_file`, anything else (a pipe, a socket, a device) with
 * `unsupported_target`.
 */
export function assertWorkspaceRegularFile(toolName: string, displayPath: string, stats: WorkspaceStats): void {
  if (stats.type === "file") return;
  if (stats.type === "directory") {
    throw new ToolError("not_a_file", `${toolName} failed: ${displayPath} is a directory. Use List to see its entries, or pass a file path.`, {
      details: { path: displayPath },
    });
  }
  const fileType = stats.type === "symlink" ? "a symlink" : "not a regular file";
  throw new ToolError(
    "unsupported_target",
    `${toolName} refused: ${displayPath} is ${fileType}, not a regular file. ${toolName} works on regular files only; use Bash if you really mean to read or write a special file.`,
    { details: { path: displayPath, fileType } },
  );
}
