import path from "node:path";
import { ToolError, type PathIntent, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { suggestSimilarPaths } from "./did-you-mean.js";

/** The error raised when a path does not exist, with did-you-mean candidates and the next step. */
export function notFoundError(toolName: string, resolved: ResolvedPath, context: ToolContext): ToolError {
  const suggestions = suggestSimilarPaths(resolved.rootPath, resolved.absolutePath).map((candidate) => context.paths.display(candidate));
  return notFoundErrorWith(toolName, resolved, suggestions);
}

/** {@link notFoundError} with the did-you-mean candidates (display paths) found elsewhere (through a workspace). */
export function notFoundErrorWith(toolName: string, resolved: ResolvedPath, suggestions: readonly string[]): ToolError {
  const where = resolved.scope === "workspace" ? `workspace root: ${resolved.rootPath}` : `root: ${resolved.rootPath}`;
  const next = suggestions.length
    ? `Did you mean: ${suggestions.join(", ")}? Retry with one of these exact paths.`
    : `Find it with Glob pattern="**/${path.basename(resolved.absolutePath)}", or List the parent directory.`;
  return new ToolError("not_found", `${toolName} failed: ${resolved.displayPath} does not exist (${where}). ${next}`, {
    details: { path: resolved.displayPath, didYouMean: [...suggestions] },
  });
}

/** A file tool's call on one `path` argument. */
export interface PathCall {
  toolName: string;
  /** The `path` argument as the model wrote it. */
  path: string;
  intent: PathIntent;
  context: ToolContext;
}

/**
 * Resolves a tool's `path` argument through the path policy (label
 * "<Tool> path") and runs `run` on it; any error it throws comes back as a
 * {@link ToolError} with guidance for the model ({@link toFsToolError}).
 */
export async function onResolvedPath<T>(call: PathCall, run: (resolved: ResolvedPath) => Promise<T>): Promise<T> {
  const { toolName, path: inputPath, intent, context } = call;
  const resolved = context.paths.resolve(inputPath, { intent, label: `${toolName} path` });
  try {
    return await run(resolved);
  } catch (error) {
    throw toFsToolError(toolName, error, resolved, context);
  }
}

/**
 * Turns a Node file-system error into a {@link ToolError} with guidance for
 * the model; a `ToolError` passes through unchanged.
 */
export function toFsToolError(toolName: string, error: unknown, resolved: ResolvedPath | undefined, context: ToolContext): ToolError {
  if (error instanceof ToolError) return error;
  const code = (error as { code?: string } | null)?.code;
  const target = resolved?.displayPath ?? "the path";
  switch (code) {
    case "ENOENT":
      if (resolved) return notFoundError(toolName, resolved, context);
      return new ToolError("not_found", `${toolName} failed: ${target} does not exist.`);
    case "ENOTDIR":
      return new ToolError("not_a_directory", `${toolName} failed: a parent of ${target} is a file, not a directory. Check the path with List.`);
    case "EISDIR":
      return new ToolError("not_a_file", `${toolName} failed: ${target} is a directory. Use List to see its entries, or pass a file path.`);
    case "EACCES":
    case "EPERM":
      return new ToolError(
        "permission_denied",
        `${toolName} failed: the operating system denied access to ${target}. Do not retry; choose another file or ask the user.`,
        { recoverable: false },
      );
    case "ELOOP":
      return new ToolError(
        "invalid_path",
        `${toolName} failed: ${target} is a symlink loop (or too many levels of symlinks). Delete the link or point it at an existing file (Delete removes a symlink itself, never its target), then retry.`,
      );
    case "ENAMETOOLONG":
      return new ToolError("invalid_path", `${toolName} failed: ${target} is too long a path.`);
    case "ENOSPC":
    case "EDQUOT":
      return new ToolError("io", `${toolName} failed: the disk is full while writing ${target}.`, { recoverable: false });
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return new ToolError("io", `${toolName} failed on ${target}: ${message}.`);
    }
  }
}
