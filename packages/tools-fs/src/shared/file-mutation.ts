import { type Stats, lstatSync } from "node:fs";
import { ToolError, type ResolvedPath, type ToolContext } from "@agent-tools/core";
import { type AnchoredTarget, anchorTarget } from "./anchored-target.js";
import { acquireFileLock } from "@agent-tools/file-io";
import { type OpenedFile, openRegularFile } from "./regular-file.js";
import { type FsToolEnvironment, stateKey } from "./tool-environment.js";

/** Options of {@link withFileMutation}. */
export interface FileMutationOptions {
  toolName: string;
  /** Follow a symlink in the last component (Write, Edit); false for Delete. */
  followLeaf: boolean;
  /** Create missing parent directories (Write). */
  createParents?: boolean;
}

/**
 * Runs one mutation of a file under every guarantee the file tools give:
 * after earlier mutations of the same file in this registry (in call order),
 * on the directory pinned by descriptor (no racing symlink can redirect it),
 * and holding the file's cross-process lock, so the staleness check inside
 * `run` stays true until its rename or unlink. `run` gets the target with
 * the entry's `lstat` taken under the lock.
 */
export async function withFileMutation<T>(
  resolved: ResolvedPath,
  context: ToolContext,
  environment: FsToolEnvironment,
  options: FileMutationOptions,
  run: (target: AnchoredTarget) => Promise<T>,
): Promise<T> {
  const key = stateKey(resolved.absolutePath);
  return environment.mutations.run(key, async () => {
    // A call aborted while it waited for an earlier mutation must not run at all.
    if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it changed anything.");
    const target = anchorTarget(resolved, options);
    try {
      const lock = await acquireFileLock(target.directory, target.name, {
        toolName: options.toolName,
        displayPath: resolved.displayPath,
        signal: context.signal,
      });
      try {
        let stats: Stats | undefined;
        try {
          stats = lstatSync(target.entryPath);
        } catch (error) {
          if ((error as { code?: string }).code !== "ENOENT") throw error;
        }
        return await run({ ...target, stats });
      } finally {
        lock.release();
      }
    } finally {
      target.close();
    }
  });
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
