/**
 * The states of a workspace's paths (a workspace that is not the local
 * disk: SSH, memory, ...), read and put back through `workspace.fs` only.
 * Their records live in the host's store beside the local ones, under a key
 * naming the workspace's label, so two workspaces (or a workspace and this
 * host) never mix even when their paths are equal.
 */
import { posix } from "node:path";
import { ToolError } from "@agent-tools/core";
import { type Workspace, WorkspaceError, type WorkspaceStats } from "@agent-tools/core/workspace";
import type { FileImage } from "../domain/file-image.js";
import { ABSENT_IMAGE, sha256Hex } from "./read-file-image.js";

const EMPTY = new Uint8Array(0);
const KEY_PREFIX = "workspace:";

/**
 * The store key of `path` in the workspace labelled `label`:
 * `workspace:<label, URI-encoded>:<path>`. Local paths start with `/`, so a
 * key never equals a local path.
 */
export function workspaceKey(label: string, path: string): string {
  return `${KEY_PREFIX}${encodeURIComponent(label)}:${path}`;
}

/** The workspace label and path of a store key, or undefined for a path of this host. */
export function parseWorkspaceKey(key: string): { readonly label: string; readonly path: string } | undefined {
  if (!key.startsWith(KEY_PREFIX)) return undefined;
  const separator = key.indexOf(":", KEY_PREFIX.length);
  if (separator < 0) return undefined;
  try {
    return { label: decodeURIComponent(key.slice(KEY_PREFIX.length, separator)), path: key.slice(separator + 1) };
  } catch {
    return undefined;
  }
}

/** True when `error` says the path (or a parent) is not there. */
function isMissing(error: unknown): boolean {
  return error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory");
}

async function lstatOrUndefined(workspace: Workspace, path: string): Promise<WorkspaceStats | undefined> {
  try {
    return await workspace.fs.lstat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/**
 * Refuses with `ToolError("out_of_bounds")` when a directory on the way to
 * `path` is a symlink now (its parent no longer canonicalises to itself):
 * the path no longer names what was recorded. A missing parent is fine.
 */
async function assertParentUnmoved(workspace: Workspace, path: string): Promise<void> {
  const parent = posix.dirname(path);
  let canonical: string;
  try {
    canonical = await workspace.fs.realpath(parent);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  if (canonical !== parent) {
    throw new ToolError("out_of_bounds", `${parent} resolves to ${canonical} in ${workspace.label} now`);
  }
}

/**
 * What `path` (absolute, canonical in the workspace) holds now, read
 * through the workspace without following a symlink at the leaf: a regular
 * file's bytes and permission bits, a symlink's target, a directory's
 * permission bits, or absence. Anything else is refused.
 */
export async function readWorkspaceImage(workspace: Workspace, path: string): Promise<FileImage> {
  await assertParentUnmoved(workspace, path);
  const info = await lstatOrUndefined(workspace, path);
  if (info === undefined) return ABSENT_IMAGE;
  if (info.type === "symlink") {
    const linkTarget = await workspace.fs.readlink(path);
    return { kind: "symlink", mode: 0, sha256: sha256Hex(linkTarget), linkTarget, content: EMPTY };
  }
  if (info.type === "directory") return { kind: "directory", mode: info.mode & 0o7777, sha256: "", linkTarget: "", content: EMPTY };
  if (info.type !== "file")
    throw new Error(`${path} in ${workspace.label} is neither a regular file, a directory nor a symlink, so its state cannot be recorded`);
  const content = new Uint8Array(await workspace.fs.readFile(path));
  return { kind: "file", mode: info.mode & 0o7777, sha256: sha256Hex(content), linkTarget: "", content };
}

/**
 * Makes `path` hold `image` through the workspace: a file is written with
 * the workspace's atomic write and the recorded permission bits (missing
 * parents created); a directory is created (with the workspace's default
 * permissions: the port cannot set a directory's). A symlink cannot be
 * restored (the port cannot create one): refused with an error saying so.
 */
export async function restoreWorkspaceImage(workspace: Workspace, path: string, image: FileImage): Promise<void> {
  const { fs } = workspace;
  await assertParentUnmoved(workspace, path);
  const existing = await lstatOrUndefined(workspace, path);
  if (image.kind === "symlink") {
    throw new Error(`the symlink to ${JSON.stringify(image.linkTarget)} cannot be put back: ${workspace.label} offers no way to create a symlink`);
  }
  if (image.kind === "directory") {
    if (existing?.type === "directory") return;
    if (existing !== undefined) await fs.unlink(path);
    await fs.mkdir(path, { recursive: true });
    return;
  }
  if (image.kind !== "file") throw new Error(`restoreWorkspaceImage cannot restore ${image.kind}; remove the entry instead`);
  // An empty directory there (an outside change, forced) is removed first; a symlink is replaced, never written through.
  if (existing?.type === "directory") await fs.rmdir(path);
  else if (existing?.type === "symlink") await fs.unlink(path);
  else if (existing === undefined) await fs.mkdir(posix.dirname(path), { recursive: true });
  await fs.writeFileAtomic(path, image.content, { mode: image.mode });
}

/** Removes `path` (a file, a symlink, or an empty directory) through the workspace; nothing there is fine. */
export async function removeWorkspaceEntry(workspace: Workspace, path: string): Promise<void> {
  await assertParentUnmoved(workspace, path);
  const existing = await lstatOrUndefined(workspace, path);
  if (existing === undefined) return;
  if (existing.type === "directory") await workspace.fs.rmdir(path);
  else await workspace.fs.unlink(path);
}
