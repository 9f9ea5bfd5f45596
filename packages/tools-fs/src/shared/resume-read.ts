/**
 * What a Write or Edit call's `resume` looks at: the file its `path` names
 * now, reached as the tool reaches it (the path policy, then the local disk
 * opened anchored with the tool's symlink rules, or the workspace with its
 * root check), read whole, changing nothing.
 */
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { FileEngine } from "../file-engine/file-engine.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, remoteWorkspace, workspaceTarget } from "../workspace/workspace-call.js";
import type { FullTextSnapshot } from "./file-state.js";
import { assertRegularFile } from "./regular-file.js";
import type { FsToolEnvironment } from "./tool-environment.js";

/** The file at a resumed call's path: absent, larger than the check reads, or its bytes and version. */
export type ResumeFile =
  | { readonly exists: false; readonly resolved: ResolvedPath }
  /** Larger than `maxBytes`: not read (a file the model made huge must not make the host read gigabytes). */
  | { readonly exists: true; readonly resolved: ResolvedPath; readonly oversize: number }
  | {
      readonly exists: true;
      readonly resolved: ResolvedPath;
      /** The file-state key (canonical path). */
      readonly key: string;
      readonly bytes: Buffer;
      readonly version: FullTextSnapshot;
    };

/** One resume check of a Write or Edit call. */
export interface ResumeReadCall {
  readonly toolName: "Write" | "Edit" | "NotebookEdit";
  readonly intent: "write" | "edit";
  /** The call's `path` argument. */
  readonly path: string;
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** The tool's own engine (its mutation queue and lock, so the read never overlaps a write of the file). */
  readonly engine: FileEngine;
  /** The most bytes the check reads; a larger file answers `oversize` unread. */
  readonly maxBytes: number;
}

/**
 * Reads the file a resumed call names, without changing it. Throws what
 * the tool would (a `ToolError` for a path outside the roots, a directory,
 * a special file, a refused symlink); the caller turns that into an
 * `unknown` decision.
 */
export async function readForResume(call: ResumeReadCall): Promise<ResumeFile> {
  const { toolName, intent, context } = call;
  const resolved = context.paths.resolve(call.path, { intent, label: `${toolName} path` });
  const workspace = remoteWorkspace(context);
  if (workspace !== undefined && isWorkspaceScope(resolved)) return readInWorkspace(call, workspace, resolved);
  if (!resolved.exists) return { exists: false, resolved };
  return call.engine.mutate({ toolName, resolved, context, followLeaf: true }, async (file) => {
    if (!file.stats) return { exists: false, resolved };
    assertRegularFile(toolName, resolved.displayPath, file.stats);
    if (file.stats.size > call.maxBytes) return { exists: true, resolved, oversize: file.stats.size };
    const { handle, stats } = await file.open();
    let bytes: Buffer | undefined;
    try {
      bytes = await readAtMost(handle, call.maxBytes);
    } finally {
      await handle.close();
    }
    if (bytes === undefined) return { exists: true, resolved, oversize: Math.max(stats.size, call.maxBytes + 1) };
    const identity = { mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
    return { exists: true, resolved, key: file.key, bytes, version: versionOf(call.environment, bytes, identity) };
  });
}

/** {@link readForResume} on a workspace that is not the local disk. */
async function readInWorkspace(call: ResumeReadCall, workspace: Workspace, resolved: ResolvedPath): Promise<ResumeFile> {
  const { toolName, intent, context } = call;
  const target = await workspaceTarget({ toolName, workspace, context, intent }, resolved);
  if (!target.exists) return { exists: false, resolved };
  const stats = await workspace.fs.stat(target.key);
  assertWorkspaceRegularFile(toolName, resolved.displayPath, stats);
  if (stats.size > call.maxBytes) return { exists: true, resolved, oversize: stats.size };
  const bytes = await workspace.fs.readFile(target.key, { signal: context.signal });
  return { exists: true, resolved, key: target.key, bytes, version: versionOf(call.environment, bytes, { mtimeMs: stats.mtimeMs }) };
}

/** The file's bytes from its start, or undefined when it holds more than `maxBytes` (it grew since its stat). */
async function readAtMost(
  handle: { read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> },
  maxBytes: number,
) {
  const buffer = Buffer.alloc(maxBytes + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled > maxBytes ? undefined : buffer.subarray(0, filled);
}

/** The version of `bytes` as a commit records it (hash and line count). */
function versionOf(environment: FsToolEnvironment, bytes: Buffer, identity: { mtimeMs: number; ctimeMs?: number; ino?: number }): FullTextSnapshot {
  const hasher = environment.fastIo.createHasher();
  hasher.update(bytes);
  return { ...identity, size: bytes.length, contentHash: hasher.digest(), totalLines: hasher.lineCount() };
}

/**
 * Records the file as the resumed call left it, as its own commit would
 * have: the next Write or Edit of it needs no Read first.
 */
export function recordResumed(environment: FsToolEnvironment, file: { readonly key: string; readonly version: FullTextSnapshot }): void {
  environment.state.recordTextMutation(file.key, file.version);
}
