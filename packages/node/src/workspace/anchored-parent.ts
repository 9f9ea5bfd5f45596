/**
 * Opens the directory that holds a path by descriptor (the file layer's
 * anchored directory), so a write or a lock beside the path happens in the
 * directory that was resolved, whatever is renamed or swapped on the way
 * meanwhile. Symlinks of the parent path are resolved first (as the kernel
 * would), but a path below the workspace's root never leaves it that way: a
 * symlink on the way that leads outside the root (planted or raced in after
 * the caller's containment check) is refused with `out_of_bounds`. The last
 * component is never followed.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { type AnchoredDirectory, DirectoryMovedError, anchorDirectory } from "@agent-tools/file-io/internal";
import { WorkspaceError, isWithinWorkspacePath, workspaceErrorFromErrno } from "@agent-tools/core/workspace";
import { mapErrno } from "./local-errors.js";

/** Attempts when the parent is swapped between its resolution and its opening. */
const ANCHOR_ATTEMPTS = 3;

/** The anchored parent of a path and the name of its last component. */
export interface AnchoredParent {
  readonly directory: AnchoredDirectory;
  readonly name: string;
}

/**
 * Opens the parent of the absolute `target` by descriptor. Rejects with
 * `not_found` when it is missing, `out_of_bounds` when `target` lies below
 * `root` but its parent resolves outside it, and `io` when it keeps moving.
 */
export async function anchorParent(target: string, operation: string, root: string): Promise<AnchoredParent> {
  const normal = path.resolve("/", target);
  const name = path.basename(normal);
  if (normal === "/" || name === "")
    throw new WorkspaceError("is_a_directory", `${operation} ${target}: it is the root directory.`, { path: target, operation });
  for (let attempt = 1; ; attempt += 1) {
    const parent = await mapErrno(operation, target, () => realpath(path.dirname(normal)));
    if (isWithinWorkspacePath(root, normal) && !isWithinWorkspacePath(root, parent)) {
      throw new WorkspaceError("out_of_bounds", `${operation} ${target}: its directory resolves to ${parent}, outside the workspace root ${root}.`, {
        path: target,
        operation,
        canonicalPath: parent,
      });
    }
    try {
      return { directory: anchorDirectory(parent), name };
    } catch (error) {
      if (!(error instanceof DirectoryMovedError) || attempt >= ANCHOR_ATTEMPTS) {
        throw error instanceof DirectoryMovedError
          ? new WorkspaceError("io", `${operation} ${target}: its directory kept moving while it was opened.`, { path: target, operation }, { cause: error })
          : workspaceErrorFromErrno(error, operation, target);
      }
    }
  }
}
