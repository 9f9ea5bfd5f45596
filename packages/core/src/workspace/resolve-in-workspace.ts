import { posix } from "node:path";
import { WorkspaceError } from "./workspace-error.js";
import type { WorkspaceFileSystem } from "./workspace-port.js";

/** Symlinks one resolution follows at most (as Linux's MAXSYMLINKS). */
const MAX_HOPS = 40;

/** A path canonicalised through a workspace. */
export interface WorkspaceCanonicalPath {
  /** Every existing component's symlinks resolved, the missing tail appended. */
  readonly canonicalPath: string;
  /** True when the whole path exists (following symlinks). */
  readonly exists: boolean;
  /** True when the last component is itself a symlink (dangling or not). */
  readonly isSymlink: boolean;
}

/** True when `child` is `parent` or lies below it (absolute POSIX paths, normalised). */
export function isWithinWorkspacePath(parent: string, child: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith("/") ? parent : `${parent}/`);
}

/**
 * Canonicalises an absolute workspace path through the port, one component
 * at a time as the kernel does, tolerating missing components (a dangling
 * symlink is followed to where its target would be, so a later write's real
 * destination is what gets checked). `keepLeafSymlink` resolves the parent
 * only (for removing the link itself). Rejects with `symlink_loop` past 40
 * hops.
 *
 * @example
 * await canonicalizeInWorkspace(workspace.fs, "/repo/new/file.txt"); // { canonicalPath: "/repo/new/file.txt", exists: false, isSymlink: false }
 */
export async function canonicalizeInWorkspace(
  fs: WorkspaceFileSystem,
  absolutePath: string,
  options: { keepLeafSymlink?: boolean } = {},
): Promise<WorkspaceCanonicalPath> {
  const normal = posix.resolve("/", absolutePath);
  const leaf = await lstatOrNull(fs, normal);
  const isSymlink = leaf?.type === "symlink";
  if (isSymlink && options.keepLeafSymlink && normal !== "/") {
    const parent = await canonicalizeInWorkspace(fs, posix.dirname(normal));
    return { canonicalPath: posix.join(parent.canonicalPath, posix.basename(normal)), exists: true, isSymlink };
  }
  const pending = normal.split("/").filter(Boolean).reverse();
  let resolved = "/";
  let onDisk = true;
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === ".") continue;
    if (part === "..") {
      resolved = posix.dirname(resolved);
      continue;
    }
    const next = posix.join(resolved, part);
    if (!onDisk) {
      resolved = next;
      continue;
    }
    const stats = await lstatOrNull(fs, next);
    if (stats === null) {
      onDisk = false;
      resolved = next;
      continue;
    }
    if (stats.type !== "symlink") {
      resolved = next;
      continue;
    }
    hops += 1;
    if (hops > MAX_HOPS)
      throw new WorkspaceError("symlink_loop", `Too many symlinks resolving ${absolutePath}`, { path: absolutePath, operation: "canonicalize" });
    const target = await fs.readlink(next);
    // The link's target replaces it; an absolute target restarts from the root.
    pending.push(...target.split("/").filter(Boolean).reverse());
    if (target.startsWith("/")) resolved = "/";
  }
  const exists = onDisk && (await statExists(fs, resolved));
  return { canonicalPath: resolved, exists, isSymlink };
}

/**
 * Canonicalises `absolutePath` and refuses (`out_of_bounds`) when the result
 * is outside `root` (the workspace's root, or a narrower root of the
 * registry): the containment check of the port.
 */
export async function resolveInWorkspace(
  fs: WorkspaceFileSystem,
  root: string,
  absolutePath: string,
  options: { keepLeafSymlink?: boolean } = {},
): Promise<WorkspaceCanonicalPath> {
  const canonical = await canonicalizeInWorkspace(fs, absolutePath, options);
  if (!isWithinWorkspacePath(root, canonical.canonicalPath)) {
    throw new WorkspaceError("out_of_bounds", `${absolutePath} resolves to ${canonical.canonicalPath}, outside ${root}.`, {
      path: absolutePath,
      operation: "resolve",
      canonicalPath: canonical.canonicalPath,
    });
  }
  return canonical;
}

async function lstatOrNull(fs: WorkspaceFileSystem, path: string) {
  try {
    return await fs.lstat(path);
  } catch (error) {
    if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory")) return null;
    throw error;
  }
}

async function statExists(fs: WorkspaceFileSystem, path: string): Promise<boolean> {
  try {
    await fs.stat(path);
    return true;
  } catch (error) {
    if (error instanceof WorkspaceError && (error.code === "not_found" || error.code === "not_a_directory")) return false;
    throw error;
  }
}
