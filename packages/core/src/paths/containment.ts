import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";
import { ToolError } from "../errors.js";
import { shortenForMessage } from "../quote.js";

/** Symlinks one resolution follows at most, as Linux's MAXSYMLINKS; more is treated as a loop. */
export const MAX_SYMLINK_HOPS = 40;

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
 * ancestor and appends the components that do not exist yet. A dangling
 * symlink is followed to where its target would be, so containment checks
 * see the real destination of a later write. With `keepLeafSymlink` a
 * symlink in the last component is not followed (for deleting the link
 * itself).
 *
 * Throws a `ToolError` (`invalid_path`, `details.symlinkLoop: true`) when
 * resolving follows more than {@link MAX_SYMLINK_HOPS} symlinks: a loop
 * (`a -> b -> a`, `self -> self`) or an absurdly long chain.
 *
 * @example
 * canonicalizeTarget("/repo/new/file.txt"); // { canonicalPath: "/repo/new/file.txt", exists: false, isSymlink: false }
 */
export function canonicalizeTarget(target: string, options: { keepLeafSymlink?: boolean } = {}): CanonicalTarget {
  const absolute = path.resolve(target);
  let isSymlink = false;
  try {
    isSymlink = lstatSync(absolute).isSymbolicLink();
  } catch {
    isSymlink = false;
  }
  if (isSymlink && options.keepLeafSymlink) {
    // The parent is resolved in full (one level only: that call does not keep its leaf).
    const parent = canonicalizeTarget(path.dirname(absolute));
    return { canonicalPath: path.join(parent.canonicalPath, path.basename(absolute)), exists: true, isSymlink };
  }
  const full = tryRealpath(absolute);
  if (full !== null) return { canonicalPath: full, exists: true, isSymlink };
  return { canonicalPath: walkComponents(absolute), exists: false, isSymlink };
}

/**
 * Resolves `absolute` one component at a time, as the kernel does, but
 * tolerates missing components: from the first missing one on, the rest is
 * appended lexically (a later `..` can step back onto disk and is checked
 * again). Iterative with a hop counter, so a loop ends in an error instead
 * of a stack overflow.
 */
function walkComponents(absolute: string): string {
  const pending = splitComponents(absolute).reverse();
  let resolved = path.parse(absolute).root;
  const missing: string[] = [];
  let resolvedIsDirectory = true;
  let hops = 0;
  let firstLink: string | undefined;
  // `continue` runs the update expression, which takes the next component.
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (name === ".") continue;
    if (missing.length > 0 || !resolvedIsDirectory) {
      if (name !== "..") missing.push(name);
      else if (missing.length > 0) missing.pop();
      else {
        resolved = path.dirname(resolved);
        resolvedIsDirectory = true;
      }
      continue;
    }
    if (name === "..") {
      resolved = path.dirname(resolved);
      continue;
    }
    const next = path.join(resolved, name);
    let isLink: boolean;
    let isDirectory: boolean;
    try {
      const info = lstatSync(next);
      isLink = info.isSymbolicLink();
      isDirectory = info.isDirectory();
    } catch {
      missing.push(name);
      continue;
    }
    if (!isLink) {
      resolved = next;
      resolvedIsDirectory = isDirectory;
      continue;
    }
    firstLink ??= next;
    hops += 1;
    if (hops > MAX_SYMLINK_HOPS) throw symlinkLoopError(absolute, firstLink, next);
    let link: string;
    try {
      link = readlinkSync(next);
    } catch {
      missing.push(name);
      continue;
    }
    if (path.isAbsolute(link)) resolved = path.parse(link).root;
    pending.push(...splitComponents(link).reverse());
  }
  return missing.length > 0 ? path.join(resolved, ...missing) : resolved;
}

/** The components of a path after its root (`/`, or a drive on Windows). */
function splitComponents(value: string): string[] {
  return value
    .slice(path.parse(value).root.length)
    .split(path.sep === "\\" ? /[\\/]+/ : /\/+/)
    .filter((part) => part !== "");
}

function symlinkLoopError(target: string, firstLink: string, lastLink: string): ToolError {
  return new ToolError(
    "invalid_path",
    `${shortenForMessage(target)} is a symlink loop (or too many levels of symlinks): resolving it followed more than ${MAX_SYMLINK_HOPS} symlinks, starting at ${shortenForMessage(firstLink)}. Delete the link or point it at an existing file.`,
    { details: { symlinkLoop: true, path: shortenForMessage(target), firstLink: shortenForMessage(firstLink), lastLink: shortenForMessage(lastLink) } },
  );
}

/**
 * {@link canonicalizeTarget}, with null for a symlink loop instead of its
 * error (other errors still throw). The path policy matches a looping path
 * lexically and reports the loop itself, naming the first link.
 *
 * @example
 * canonicalOrLoop("/repo/self-link"); // null when self-link -> self-link
 */
export function canonicalOrLoop(target: string, options: { keepLeafSymlink?: boolean } = {}): CanonicalTarget | null {
  try {
    return canonicalizeTarget(target, options);
  } catch (error) {
    if (error instanceof ToolError && error.details.symlinkLoop === true) return null;
    throw error;
  }
}
