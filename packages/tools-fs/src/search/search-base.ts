import type { Stats } from "node:fs";
import { lstat, stat } from "node:fs/promises";
import path from "node:path";
import { ToolError, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { notFoundError } from "../shared/fs-errors.js";
import { stateKey } from "../shared/tool-environment.js";

/** Where a search runs: a directory, or a single file. */
export interface SearchBase {
  resolved: ResolvedPath;
  /** Canonical absolute directory searched. */
  directory: string;
  /** Display form of `directory` ("." for the workspace root). */
  displayDirectory: string;
  /** Set when the path named a file: its name inside `directory`. */
  fileName?: string;
  /** Folders below `directory` a walk skips (relative, `/`-separated): the skills root, reached through `skill://` instead. */
  excluded: ReadonlySet<string>;
  /**
   * Set for the host's own folders (`skill://`, uploads): the topmost folder
   * whose ignore files the walk reads (the skills folder, the uploads
   * folder), since they are not part of the project. Such a search runs in
   * this process (Grep's TypeScript engine, never ripgrep, which would read
   * the ignore files of every folder above). Undefined: every ancestor's.
   */
  ignoreBoundary?: string;
}

/**
 * The topmost folder whose ignore files a search of `resolved` reads: the
 * skills folder for `skill://` (a skill never inherits the ignore files of
 * the folders holding the host's data), the uploads folder for uploads;
 * undefined for the workspace and granted roots.
 */
export function hostFolderIgnoreBoundary(resolved: ResolvedPath): string | undefined {
  if (resolved.scope === "skill") return path.dirname(resolved.rootPath);
  if (resolved.scope === "uploads") return resolved.rootPath;
  return undefined;
}

/** Resolves the `path` argument of List, Glob and Grep (default: the workspace root). */
export async function resolveSearchBase(toolName: string, input: string | undefined, intent: "list" | "search", context: ToolContext): Promise<SearchBase> {
  const resolved = context.paths.resolve(input ?? ".", { intent, label: `${toolName} path` });
  if (!resolved.exists) throw await missingPathError(toolName, resolved, context);
  const canonical = stateKey(resolved.absolutePath);
  const info = await stat(canonical);
  const ignoreBoundary = hostFolderIgnoreBoundary(resolved);
  if (info.isDirectory()) {
    return { resolved, directory: canonical, displayDirectory: resolved.displayPath, excluded: walkExclusions(context, canonical), ignoreBoundary };
  }
  // Reading a FIFO would block until a writer comes, a device may never end.
  if (!info.isFile()) throw specialFileError(toolName, resolved, specialFileKind(info));
  return {
    resolved,
    directory: path.dirname(canonical),
    displayDirectory: fileBaseDisplay(resolved),
    fileName: path.basename(canonical),
    excluded: new Set(),
    ignoreBoundary,
  };
}

/** The refusal of a search path that is neither a regular file nor a directory (`kind`: "named pipe (FIFO)", "socket", ...). */
export function specialFileError(toolName: string, resolved: ResolvedPath, kind: string): ToolError {
  return new ToolError(
    "unsupported_target",
    `${toolName} failed: ${resolved.displayPath} is a ${kind}, not a regular file or directory; ${toolName} reads only regular files. Pass a directory or a regular file instead.`,
    {
      details: { path: resolved.displayPath, kind },
    },
  );
}

/** The display directory of a search whose path names a file: its parent as the model named it. */
export function fileBaseDisplay(resolved: ResolvedPath): string {
  const parentDisplay = resolved.displayPath.includes("/") ? resolved.displayPath.slice(0, resolved.displayPath.lastIndexOf("/")) : ".";
  return parentDisplay === "root:/" ? resolved.displayPath : parentDisplay;
}

/** The path policy's walk exclusions below `directory`, relative with `/`. */
export function walkExclusions(context: ToolContext, directory: string): ReadonlySet<string> {
  return new Set(context.paths.walkExclusions(directory).map((excluded) => path.relative(directory, excluded).split(path.sep).join("/")));
}

/**
 * The error for a path the policy found missing: a symlink loop (ELOOP) or a
 * dangling symlink says so, anything else is "does not exist".
 */
async function missingPathError(toolName: string, resolved: ResolvedPath, context: ToolContext): Promise<ToolError> {
  const link = await lstat(resolved.absolutePath).catch(() => undefined);
  if (!link?.isSymbolicLink()) return notFoundError(toolName, resolved, context);
  const code = await stat(resolved.absolutePath).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
  if (code === "ELOOP") return symlinkLoopError(toolName, resolved);
  if (code === "ENOENT") return danglingSymlinkError(toolName, resolved);
  return notFoundError(toolName, resolved, context);
}

/** The refusal of a search path that is a symlink loop. */
export function symlinkLoopError(toolName: string, resolved: ResolvedPath): ToolError {
  return new ToolError(
    "invalid_path",
    `${toolName} failed: ${resolved.displayPath} is a symlink loop (it points back to itself, directly or through other links), so it names no file or directory. Pass the real path instead; List its parent directory to see the links.`,
    {
      details: { path: resolved.displayPath, reason: "symlink_loop" },
    },
  );
}

/** The refusal of a search path that is a dangling symlink. */
export function danglingSymlinkError(toolName: string, resolved: ResolvedPath): ToolError {
  return new ToolError(
    "not_found",
    `${toolName} failed: ${resolved.displayPath} is a symlink whose target does not exist. Pass an existing file or directory instead.`,
    {
      details: { path: resolved.displayPath, reason: "dangling_symlink" },
    },
  );
}

/** What a file that is neither regular nor a directory is, for messages. */
function specialFileKind(info: Stats): string {
  if (info.isFIFO()) return "named pipe (FIFO)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "device";
  return "special file";
}

/** The standard pagination note. */
export function moreNote(kind: string, nextOffset: number): string {
  return `...more ${kind} omitted; continue with offset=${nextOffset}...`;
}
