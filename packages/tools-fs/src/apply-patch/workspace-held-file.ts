/**
 * A patch path on a workspace that is not the local disk: canonicalised
 * through the workspace (a symlink leading out of the root refused), held
 * by {@link mutateInWorkspace} (the mutation queue, the workspace's lock of
 * the file, its checkpoint pre-image recorded under the lock), written with
 * the workspace's atomic write.
 */
import { posix } from "node:path";
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import type { Workspace, WorkspaceStats } from "@agent-tools/core/workspace";
import type { FileVersion, FullTextSnapshot } from "../shared/file-state.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { assertWorkspaceRegularFile, statOrUndefined, workspaceTarget, type WorkspaceTarget } from "../workspace/workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "../workspace/workspace-errors.js";
import { type WorkspaceLockedFile, mutateInWorkspace } from "../workspace/workspace-mutation.js";
import type { HeldEntryType, HeldPatchFile, PatchPathHolder, PatchRole } from "./held-file.js";

const TOOL = "ApplyPatch";

/** What a workspace holder needs of its call. */
export interface WorkspaceHoldCall {
  readonly workspace: Workspace;
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
}

function intentOf(role: PatchRole) {
  if (role === "delete") return "delete" as const;
  return role === "update" ? ("edit" as const) : ("write" as const);
}

/** The ancestors of `directory` missing in the workspace, deepest first. */
async function missingDirectories(workspace: Workspace, directory: string): Promise<string[]> {
  const missing: string[] = [];
  for (let current = directory; current !== posix.dirname(current); current = posix.dirname(current)) {
    if ((await statOrUndefined(workspace, current)) !== undefined) break;
    missing.push(current);
  }
  return missing;
}

/** Places a resolved path in the workspace and holds it for one role of a patch. */
export async function workspaceHolder(
  resolved: ResolvedPath,
  role: PatchRole,
  call: WorkspaceHoldCall,
  options: { createParents: boolean },
): Promise<PatchPathHolder & { readonly target: WorkspaceTarget }> {
  const { workspace, context, environment } = call;
  const errorCall = { toolName: TOOL, workspace, context, intent: intentOf(role) };
  let target: WorkspaceTarget;
  let created: string[] = [];
  const creates = options.createParents && (role === "add" || role === "move-destination");
  try {
    target = await workspaceTarget(errorCall, resolved);
    const root = resolved.scope === "external" ? workspace.root : resolved.rootPath;
    if (creates) created = (await missingDirectories(workspace, posix.dirname(target.key))).filter((directory) => directory.startsWith(`${root}/`));
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
  return {
    resolved,
    role,
    target,
    order: `workspace:${target.key}`,
    queueKey: `workspace:${target.key}`,
    async hold(run) {
      try {
        return await mutateInWorkspace({ toolName: TOOL, target, context, environment, followLeaf: role !== "delete", createParents: creates }, (file) =>
          run(new WorkspaceHeldFile(file, target, call)),
        );
      } catch (error) {
        throw await workspaceToolError(errorCall, error, resolved);
      }
    },
    async removeCreatedDirectories() {
      for (const directory of created) {
        try {
          // Only while its parent still resolves to itself (no folder on the way swapped for a symlink).
          if ((await workspace.fs.realpath(posix.dirname(directory))) !== posix.dirname(directory)) return;
          await workspace.fs.rmdir(directory);
        } catch {
          return;
        }
      }
    },
  };
}

function typeOf(stats: WorkspaceStats | undefined): HeldEntryType {
  return stats === undefined ? "missing" : stats.type;
}

/** A workspace file held under its lock. */
class WorkspaceHeldFile implements HeldPatchFile {
  readonly type: HeldEntryType;
  readonly mode: number | undefined;
  readonly size: number;
  readonly resolved: ResolvedPath;

  constructor(
    private readonly file: WorkspaceLockedFile,
    private readonly target: WorkspaceTarget,
    private readonly call: WorkspaceHoldCall,
  ) {
    this.type = typeOf(file.stats);
    this.mode = file.stats?.mode;
    this.size = file.stats?.size ?? 0;
    this.resolved = target.resolved;
  }

  get key(): string {
    return this.target.key;
  }

  assertRegular(): void {
    if (this.file.stats) assertWorkspaceRegularFile(TOOL, this.resolved.displayPath, this.file.stats);
  }

  notFound(): Promise<Error> {
    return workspaceNotFound({ toolName: TOOL, workspace: this.call.workspace, context: this.call.context }, this.resolved);
  }

  read(): Promise<Buffer> {
    return this.mapped(() => this.call.workspace.fs.readFile(this.key, { signal: this.call.context.signal }));
  }

  recorded() {
    return this.file.recorded();
  }

  assertUnchanged(expected: FileVersion, readCurrent: () => Promise<Uint8Array> | Uint8Array): Promise<void> {
    return this.file.assertUnchanged(expected, this.file.stats!, readCurrent);
  }

  countLineEndings(bytes: Uint8Array) {
    return this.file.countLineEndings(bytes);
  }

  write(pieces: readonly Buffer[], mode: number | undefined): Promise<FullTextSnapshot> {
    return this.mapped(async () => {
      const { workspace, environment } = this.call;
      const hasher = environment.fastIo.createHasher();
      for (const piece of pieces) hasher.update(piece);
      const data = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces as Buffer[]);
      // No abort signal: a commit (or the restore of a pre-image) is not left half done because the host gave up waiting.
      await workspace.fs.writeFileAtomic(this.key, data, mode === undefined ? {} : { mode });
      // Written: a failing stat now must not pass for a failed write (the file would be left out of a restore). The hash decides staleness on a workspace anyway.
      const mtimeMs = await workspace.fs.stat(this.key).then(
        (after) => after.mtimeMs,
        () => Date.now(),
      );
      const version: FullTextSnapshot = { mtimeMs, size: data.length, contentHash: hasher.digest(), totalLines: hasher.lineCount() };
      environment.state.recordTextMutation(this.key, version);
      return version;
    });
  }

  remove(): Promise<void> {
    return this.mapped(async () => {
      await this.call.workspace.fs.unlink(this.key);
      this.call.environment.state.clear(this.key);
    });
  }

  async isMissingNow(): Promise<boolean> {
    try {
      await this.call.workspace.fs.lstat(this.key);
      return false;
    } catch (error) {
      return (error as { code?: string }).code === "not_found";
    }
  }

  private async mapped<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const { workspace, context } = this.call;
      throw await workspaceToolError({ toolName: TOOL, workspace, context }, error, this.resolved);
    }
  }
}
