import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/** True when `child` equals `parent` or lies inside it (both absolute, normalised). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

/** `realpathSync` that returns null instead of throwing. */
export function tryRealpath(target: string): string | null {
  try {
    return realpathSync.native(target);
  } catch {
    return null;
  }
}

/** The canonical form of a path and whether the path itself exists. */
export interface CanonicalTarget {
  /** The canonical path: symlinks in every existing component resolved, the missing tail appended. */
  canonicalPath: string;
  /** True when the full path exists (following symlinks). */
  exists: boolean;
  /** True when the last component is itself a symlink (dangling or not). */
  isSymlink: boolean;
}

/**
 * Canonicalises `target`: resolves symlinks through the deepest existing
 * ancestor and appends the components that do not exist yet. With
 * `keepLeafSymlink` a symlink in the last component is not followed (for
 * deleting the link itself).
 */
export function canonicalizeTarget(target: string, options: { keepLeafSymlink?: boolean } = {}): CanonicalTarget {
  let isSymlink = false;
  try {
    isSymlink = lstatSync(target).isSymbolicLink();
  } catch {
    isSymlink = false;
  }
  if (isSymlink && options.keepLeafSymlink) {
    const parent = canonicalizeTarget(path.dirname(target));
    return { canonicalPath: path.join(parent.canonicalPath, path.basename(target)), exists: true, isSymlink };
  }
  const full = tryRealpath(target);
  if (full !== null) return { canonicalPath: full, exists: true, isSymlink };
  if (isSymlink) {
    // A dangling symlink: follow it lexically so its target's location is what gets checked.
    const parent = canonicalizeTarget(path.dirname(target));
    let linkTarget: string;
    try {
      linkTarget = path.resolve(parent.canonicalPath, readlinkSync(target));
    } catch {
      linkTarget = path.join(parent.canonicalPath, path.basename(target));
    }
    const resolved = canonicalizeTarget(linkTarget);
    return { canonicalPath: resolved.canonicalPath, exists: false, isSymlink };
  }
  const missing: string[] = [];
  let current = target;
  for (;;) {
    const parent = path.dirname(current);
    missing.unshift(path.basename(current));
    if (parent === current) return { canonicalPath: target, exists: false, isSymlink };
    const real = tryRealpath(parent);
    if (real !== null) return { canonicalPath: path.join(real, ...missing), exists: false, isSymlink };
    current = parent;
  }
}
