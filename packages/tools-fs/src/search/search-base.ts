import { stat } from "node:fs/promises";
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
}

/** Resolves the `path` argument of List, Glob and Grep (default: the workspace root). */
export async function resolveSearchBase(toolName: string, input: string | undefined, intent: "list" | "search", context: ToolContext): Promise<SearchBase> {
  const resolved = context.paths.resolve(input ?? ".", { intent, label: `${toolName} path` });
  if (!resolved.exists) throw notFoundError(toolName, resolved, context);
  const canonical = stateKey(resolved.absolutePath);
  const info = await stat(canonical);
  if (info.isDirectory()) return { resolved, directory: canonical, displayDirectory: resolved.displayPath };
  if (!info.isFile()) throw new ToolError("unsupported_target", `${toolName} failed: ${resolved.displayPath} is neither a file nor a directory.`);
  const parentDisplay = resolved.displayPath.includes("/") ? resolved.displayPath.slice(0, resolved.displayPath.lastIndexOf("/")) : ".";
  return { resolved, directory: path.dirname(canonical), displayDirectory: parentDisplay === "root:/" ? resolved.displayPath : parentDisplay, fileName: path.basename(canonical) };
}

/** The standard pagination note. */
export function moreNote(kind: string, nextOffset: number): string {
  return `...more ${kind} omitted; continue with offset=${nextOffset}...`;
}
