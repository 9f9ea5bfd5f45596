/**
 * Write on a workspace that is not the local disk: the same checks (the
 * root, a dangling symlink, a directory, read-before-write and staleness,
 * the automatic full read) and the same answer as on the local disk, the
 * bytes committed through the workspace's atomic write.
 */
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { readTextWindow } from "../shared/text-window.js";
import type { FullTextSnapshot } from "../shared/file-state.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { primeFullSnapshotFrom } from "../write/auto-prime.js";
import { assertNotDanglingWrite, assertNotWriteRoot, writeDirectoryError, writeResult } from "../write/write-checks.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceToolError } from "./workspace-errors.js";
import { type WorkspaceLockedFile, mutateInWorkspace } from "./workspace-mutation.js";
import { workspaceReadHandle } from "./workspace-source.js";

/** One Write call on a workspace. */
export interface WorkspaceWriteCall<T> {
  readonly workspace: Workspace;
  readonly input: { path: string; content: string };
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Writes a path of the host's own folders (`skill://`) as the local Write does. */
  readonly local: (resolved: ResolvedPath) => Promise<T>;
}

/** Write of `input.path` in the workspace. */
export async function writeInWorkspace<T>(call: WorkspaceWriteCall<T>) {
  const { workspace, input, context, environment } = call;
  const errorCall = { toolName: "Write", workspace, context, intent: "write" as const };
  const resolved = context.paths.resolve(input.path, { intent: "write", label: "Write path" });
  if (!isWorkspaceScope(resolved)) return call.local(resolved);
  try {
    assertNotWriteRoot(resolved);
    const target = await workspaceTarget(errorCall, resolved);
    assertNotDanglingWrite(resolved.displayPath, target);
    return await mutateInWorkspace({ toolName: "Write", target, context, environment, followLeaf: true, createParents: true }, (file) =>
      writeLocked(file, input.content, resolved, call),
    );
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}

async function writeLocked<T>(file: WorkspaceLockedFile, content: string, resolved: ResolvedPath, call: WorkspaceWriteCall<T>) {
  const { workspace, context, environment } = call;
  const existing = file.stats;
  if (existing?.type === "directory") throw writeDirectoryError(resolved.displayPath);
  if (existing) assertWorkspaceRegularFile("Write", resolved.displayPath, existing);
  let autoRead = false;
  if (existing) {
    let expected: FullTextSnapshot | undefined = file.recorded().fullText;
    if (!expected) {
      expected = await primeFullSnapshotFrom(file, context, environment, (options) =>
        readTextWindow(workspaceReadHandle(workspace, file.key, existing, context.signal), options),
      );
      autoRead = true;
    }
    try {
      await file.assertUnchanged(expected, existing, () => file.readBytes());
    } catch (error) {
      if (autoRead) file.forget();
      throw error;
    }
  }
  const bytes = Buffer.from(content, "utf8");
  let version: FullTextSnapshot;
  try {
    version = await file.commit([bytes]);
  } catch (error) {
    if (autoRead) file.forget();
    throw error;
  }
  return writeResult({
    resolved,
    content,
    existedBefore: existing !== undefined,
    bytesWritten: bytes.length,
    version,
    contentHash: version.contentHash,
    autoRead,
  });
}
