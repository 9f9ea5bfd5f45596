/**
 * A patch path on the local disk: held by the bundle's {@link FileEngine}
 * (the mutation queue, the directory pinned by descriptor, the file's
 * cross-process lock), read without following a swapped-in symlink, and
 * written with the anchored atomic write, as Write, Edit and Delete do.
 */
import { type Stats, lstatSync, rmdirSync } from "node:fs";
import { unlink } from "node:fs/promises";
import path from "node:path";
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import { canonicalizeTarget, isWithin } from "@agent-tools/core/internal";
import { anchorDirectory } from "@agent-tools/file-io/internal";
import { commitAtomically } from "../file-engine/atomic-commit.js";
import type { FileEngine } from "../file-engine/file-engine.js";
import type { LockedFile } from "../file-engine/locked-file.js";
import { notFoundError, toFsToolError } from "../shared/fs-errors.js";
import { assertRegularFile } from "../shared/regular-file.js";
import { type FsToolEnvironment, stateKey } from "../shared/tool-environment.js";
import type { HeldEntryType, HeldPatchFile, PatchPathHolder, PatchRole } from "./held-file.js";

const TOOL = "ApplyPatch";

/** What a local holder needs of its call. */
export interface LocalHoldCall {
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  readonly engine: FileEngine;
}

function typeOf(stats: Stats | undefined): HeldEntryType {
  if (stats === undefined) return "missing";
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  return "other";
}

/** The ancestors of `directory` that do not exist, deepest first. */
function missingDirectories(directory: string): string[] {
  const missing: string[] = [];
  for (let current = directory; ; current = path.dirname(current)) {
    try {
      lstatSync(current);
      return missing;
    } catch {
      if (path.dirname(current) === current) return missing;
      missing.push(current);
    }
  }
}

/** Holds a resolved local path for one role of a patch. */
export function localHolder(resolved: ResolvedPath, role: PatchRole, call: LocalHoldCall, options: { createParents: boolean }): PatchPathHolder {
  const creates = options.createParents && (role === "add" || role === "move-destination");
  let canonical: string;
  try {
    // The longest existing prefix resolved, so two spellings of one new file, one through a symlinked folder, are one file.
    canonical = canonicalizeTarget(resolved.absolutePath, { keepLeafSymlink: role === "delete" }).canonicalPath;
  } catch (error) {
    throw toFsToolError(TOOL, error, resolved, call.context);
  }
  // The folders a hold would create, canonical and inside the root: the only ones a clean-up may remove.
  const created = creates
    ? missingDirectories(path.dirname(canonical)).filter((directory) => resolved.scope === "external" || isWithin(resolved.rootPath, directory))
    : [];
  return {
    resolved,
    role,
    order: `local:${canonical}`,
    queueKey: `local:${stateKey(resolved.absolutePath)}`,
    async hold(run) {
      try {
        return await call.engine.mutate({ toolName: TOOL, resolved, context: call.context, followLeaf: role !== "delete", createParents: creates }, (file) =>
          run(new LocalHeldFile(file, resolved, call)),
        );
      } catch (error) {
        throw toFsToolError(TOOL, error, resolved, call.context);
      }
    },
    async removeCreatedDirectories() {
      for (const directory of created) {
        try {
          // Through the parent opened and verified as the very folder checked: a folder on the way swapped for a symlink fails the check.
          const parent = anchorDirectory(path.dirname(directory));
          try {
            rmdirSync(parent.entry(path.basename(directory)));
          } finally {
            parent.close();
          }
        } catch {
          // Not empty (something else was put there meanwhile), already gone, or its parent moved: left as it is.
          return;
        }
      }
    },
  };
}

/** A local file held by the engine. */
class LocalHeldFile implements HeldPatchFile {
  readonly type: HeldEntryType;
  readonly mode: number | undefined;
  readonly size: number;

  constructor(
    private readonly file: LockedFile,
    readonly resolved: ResolvedPath,
    private readonly call: LocalHoldCall,
  ) {
    this.type = typeOf(file.stats);
    this.mode = file.stats ? Number(file.stats.mode) & 0o7777 : undefined;
    this.size = file.stats?.size ?? 0;
  }

  get key(): string {
    return this.file.key;
  }

  assertRegular(): void {
    if (this.file.stats) assertRegularFile(TOOL, this.resolved.displayPath, this.file.stats);
  }

  async notFound(): Promise<Error> {
    return notFoundError(TOOL, this.resolved, this.call.context);
  }

  read(): Promise<Buffer> {
    return this.mapped(async () => Buffer.from(await this.file.readBytes()));
  }

  recorded() {
    return this.file.recorded();
  }

  assertUnchanged(expected: Parameters<HeldPatchFile["assertUnchanged"]>[0], readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void> {
    return this.file.assertUnchanged(expected, this.file.stats!, readCurrent);
  }

  countLineEndings(bytes: Uint8Array) {
    return this.file.countLineEndings(bytes);
  }

  write(pieces: readonly Buffer[], mode: number | undefined) {
    return this.mapped(async () => {
      const { environment } = this.call;
      const { target } = this.file;
      // Hashed inline, always: every file of the patch's answer carries its hash and line count.
      const { version } = await commitAtomically({
        directory: target.directory,
        name: target.name,
        pieces,
        mode,
        fastIo: environment.fastIo,
        hashing: { inlineHashLimitBytes: Number.POSITIVE_INFINITY },
        countLines: () => 0,
      });
      environment.state.recordTextMutation(this.key, version);
      return version;
    });
  }

  remove(): Promise<void> {
    return this.mapped(async () => {
      await unlink(this.file.target.entryPath);
      this.call.environment.state.clear(this.key);
    });
  }

  async isMissingNow(): Promise<boolean> {
    try {
      lstatSync(this.file.target.entryPath);
      return false;
    } catch (error) {
      return (error as { code?: string }).code === "ENOENT";
    }
  }

  private async mapped<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toFsToolError(TOOL, error, this.resolved, this.call.context);
    }
  }
}
