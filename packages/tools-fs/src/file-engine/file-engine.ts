/**
 * The file engine of Write, Edit and Delete: what they do to a file, as
 * objects. {@link FileEngine.mutate} opens the target anchored (its directory
 * pinned by descriptor) and locked (after earlier mutations of the same file
 * in this registry, holding its cross-process lock); the {@link LockedFile}
 * it hands over reads the bytes, checks them against the version the model
 * saw, and commits new bytes atomically with the checkpoint pre-image
 * recorded. The primitives (anchored directories, the lock, the atomic write)
 * live in `@agent-tools/file-io`; the engine composes them for the tools.
 *
 * @example
 * const engine = new FileEngine(environment, { inlineHashLimitBytes: 1 << 20 });
 * await engine.mutate({ toolName: "Edit", resolved, context, followLeaf: true }, async (file) => {
 *   const content = await file.readWhole();
 *   // ... match, then:
 *   await file.commit({ pieces, countLines });
 * });
 */
import { type Stats, lstatSync } from "node:fs";
import { ToolError } from "@agent-tools/core";
import { acquireFileLock } from "@agent-tools/file-io/internal";
import { type FsToolEnvironment, stateKey } from "../shared/tool-environment.js";
import { anchorTarget } from "./anchored-target.js";
import type { MutationHashOptions } from "./atomic-commit.js";
import { LockedFile, type MutationRequest } from "./locked-file.js";

/** Opens files anchored and locked for the mutating tools of one bundle. */
export class FileEngine {
  constructor(
    private readonly environment: FsToolEnvironment,
    private readonly hashing: MutationHashOptions = {},
  ) {}

  /**
   * Runs one mutation of a file under every guarantee the file tools give:
   * after earlier mutations of the same file in this registry (in call
   * order), on the directory pinned by descriptor (no racing symlink can
   * redirect it), and holding the file's cross-process lock, so a staleness
   * check inside `run` stays true until its rename or unlink. `run` gets the
   * file with the entry's `lstat` taken under the lock.
   */
  mutate<T>(request: MutationRequest, run: (file: LockedFile) => Promise<T>): Promise<T> {
    const { resolved, context, toolName } = request;
    const key = stateKey(resolved.absolutePath);
    return this.environment.mutations.run(key, async () => {
      // A call aborted while it waited for an earlier mutation must not run at all.
      if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it changed anything.");
      const target = anchorTarget(resolved, { toolName, followLeaf: request.followLeaf, createParents: request.createParents });
      try {
        const lock = await acquireFileLock(target.directory, target.name, { toolName, displayPath: resolved.displayPath, signal: context.signal });
        try {
          let stats: Stats | undefined;
          try {
            stats = lstatSync(target.entryPath);
          } catch (error) {
            if ((error as { code?: string }).code !== "ENOENT") throw error;
          }
          const file = new LockedFile({ request, target: { ...target, stats }, environment: this.environment, hashing: this.hashing });
          return await run(file);
        } finally {
          lock.release();
        }
      } finally {
        target.close();
      }
    });
  }
}
