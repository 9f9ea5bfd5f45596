import { type Stats, lstatSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ToolError, type ResolvedPath } from "@agent-tools/core";
import { canonicalizeTarget, isWithin } from "@agent-tools/core/internal";
import { type AnchoredDirectory, DirectoryMovedError, anchorChild, anchorDirectory } from "@agent-tools/file-io/internal";
import { type OpenedFile, openRegularFile } from "../shared/regular-file.js";

/** How many times a target is resolved again when a racing change moved it. */
const MAX_ATTEMPTS = 8;

/** A file-tool target pinned to the directory that holds it. */
export interface AnchoredTarget {
  /** The containing directory, held open. */
  readonly directory: AnchoredDirectory;
  /** The entry's name inside `directory`. */
  readonly name: string;
  /** `directory.path/name`: the canonical path (the file-state key). */
  readonly canonicalPath: string;
  /** A path reaching the entry through the held directory. */
  readonly entryPath: string;
  /** `lstat` of the entry when it was pinned; undefined when it does not exist. */
  readonly stats: Stats | undefined;
  /** Closes the directory. */
  close(): void;
}

/** Options of {@link anchorTarget}. */
export interface AnchorTargetOptions {
  /** Tool name for messages. */
  toolName: string;
  /**
   * Follow a symlink in the last component to its target (Read, Write,
   * Edit); false pins the link itself (Delete).
   */
  followLeaf: boolean;
  /** Create missing parent directories, each one through its held parent (Write). */
  createParents?: boolean;
}

function lstatOrUndefined(entryPath: string): Stats | undefined {
  try {
    return lstatSync(entryPath);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

function outOfBounds(toolName: string, resolved: ResolvedPath, canonicalPath: string): ToolError {
  return new ToolError(
    "out_of_bounds",
    `${toolName} refused: ${resolved.displayPath} now resolves to ${canonicalPath}, outside ${resolved.scope === "root" ? `root://${resolved.alias}` : "the workspace"} (a directory on the way was replaced by a symlink). Symlinks may not lead out of the workspace or a granted root.`,
    { details: { path: resolved.displayPath, canonicalPath }, recoverable: false },
  );
}

/** The deepest existing directory of `directory`'s chain and the names missing below it. */
function splitExisting(directory: string): { existing: string; missing: string[] } {
  const missing: string[] = [];
  let current = directory;
  for (;;) {
    const info = lstatOrUndefined(current);
    if (info) return { existing: current, missing };
    const parent = path.dirname(current);
    if (parent === current) return { existing: current, missing };
    missing.unshift(path.basename(current));
    current = parent;
  }
}

/** A parent directory being created was replaced by something else meanwhile. */
class ParentReplacedError extends Error {
  constructor(readonly directory: string) {
    super(`${directory} was replaced while it was being created`);
  }
}

/** Creates `names` one below the other, each inside the directory held just before; returns the last one held. */
function createChain(start: AnchoredDirectory, names: readonly string[]): AnchoredDirectory {
  let current = start;
  for (const name of names) {
    try {
      mkdirSync(current.entry(name));
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") {
        current.close();
        throw error;
      }
    }
    let next: AnchoredDirectory;
    try {
      next = anchorChild(current, name);
    } catch (error) {
      const code = (error as { code?: string }).code;
      // Something else (a symlink, a file) took the name between mkdir and open.
      if (code === "ELOOP" || code === "ENOTDIR") throw new ParentReplacedError(path.join(current.path, name));
      throw error;
    } finally {
      current.close();
    }
    current = next;
  }
  return current;
}

/** A pin that lost a race; `cause` is what to report if every attempt loses. */
interface Retry {
  retry: true;
  cause?: unknown;
}

function pinOnce(resolved: ResolvedPath, options: AnchorTargetOptions): AnchoredTarget | Retry {
  const within = (candidate: string) => resolved.scope === "external" || isWithin(resolved.rootPath, candidate);
  const canonical = canonicalizeTarget(resolved.absolutePath, { keepLeafSymlink: !options.followLeaf }).canonicalPath;
  if (!within(canonical)) throw outOfBounds(options.toolName, resolved, canonical);
  const name = path.basename(canonical);
  let directoryPath = path.dirname(canonical);
  let missing: string[] = [];
  if (options.createParents) {
    ({ existing: directoryPath, missing } = splitExisting(directoryPath));
    if (!within(directoryPath)) throw outOfBounds(options.toolName, resolved, directoryPath);
  }
  let directory: AnchoredDirectory;
  try {
    directory = anchorDirectory(directoryPath);
  } catch (error) {
    if (error instanceof DirectoryMovedError) return { retry: true };
    const code = (error as { code?: string }).code;
    // Gone or no longer a directory: resolve again; if it stays so, that is the answer.
    if (code === "ENOENT" || code === "ENOTDIR") return { retry: true, cause: error };
    throw error;
  }
  if (missing.length > 0) {
    try {
      directory = createChain(directory, missing);
    } catch (error) {
      if (error instanceof ParentReplacedError) return { retry: true };
      throw error;
    }
  }
  const entryPath = directory.entry(name);
  let stats: Stats | undefined;
  try {
    stats = lstatOrUndefined(entryPath);
  } catch (error) {
    directory.close();
    throw error;
  }
  if (options.followLeaf && stats?.isSymbolicLink()) {
    // The leaf became a symlink after it was resolved: resolve it again.
    directory.close();
    return { retry: true };
  }
  return { directory, name, canonicalPath: path.join(directory.path, name), entryPath, stats, close: () => directory.close() };
}

/**
 * Pins a resolved path to its containing directory: canonicalises it again,
 * checks it still lies inside its root, opens the directory and verifies it
 * is the one that was checked. A racing change (a directory swapped for a
 * symlink, a leaf that became a symlink) makes it start over, up to a few
 * times; a target that then leads outside its root is refused.
 *
 * The caller closes the result.
 */
export function anchorTarget(resolved: ResolvedPath, options: AnchorTargetOptions): AnchoredTarget {
  let cause: unknown;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const pinned = pinOnce(resolved, options);
    if (!("retry" in pinned)) return pinned;
    cause = pinned.cause;
    // A missing directory twice in a row is simply missing.
    if (cause !== undefined && attempt >= 1) throw cause;
  }
  throw new ToolError(
    "conflict",
    `${options.toolName} failed: ${resolved.displayPath} kept changing while it was being opened (a directory on its path is being replaced concurrently). Wait until the other process is done, then retry.`,
    { details: { path: resolved.displayPath } },
  );
}

/**
 * Opens the pinned target as a regular file for reading (refusing pipes,
 * sockets, devices and a symlink swapped in, without blocking).
 */
export function openTarget(toolName: string, displayPath: string, target: AnchoredTarget): Promise<OpenedFile> {
  return openRegularFile(toolName, displayPath, target.entryPath, target.stats).catch((error: { code?: string }) => {
    if (error.code === "ELOOP") {
      throw new ToolError("conflict", `${toolName} failed: ${displayPath} was replaced by a symlink while it was being opened. Retry.`, {
        details: { path: displayPath },
      });
    }
    throw error;
  });
}
