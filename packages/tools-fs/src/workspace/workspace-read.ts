/**
 * Read on a workspace that is not the local disk: the file is found and
 * canonicalised through the workspace, then read through its file system
 * by the same format readers, window and line numbering as on the local
 * disk, so the answer is the same for the same file.
 */
import path from "node:path";
import { type ResolvedPath, ToolError, type ToolContext, type ToolOutput } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { archiveKind } from "../read/read-archive.js";
import type { ReadInput } from "../read/read-input.js";
import { type ReadDetails, readSource } from "../read/read-source.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";
import { workspaceReadSource } from "./workspace-source.js";

/** One Read call on a workspace. */
export interface WorkspaceReadCall {
  readonly workspace: Workspace;
  readonly input: ReadInput;
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Reads a path of the host's own folders (`skill://`, uploads) as the local Read does. */
  readonly local: (resolved: ResolvedPath) => Promise<ToolOutput<ReadDetails>>;
}

/**
 * Read of `input.path` in `workspace`; `local` reads a path of the host's
 * own folders (`skill://`, uploads) as the local Read does.
 */
export async function readInWorkspace(call: WorkspaceReadCall): Promise<ToolOutput<ReadDetails>> {
  const { workspace, input, context, environment, local } = call;
  const errorCall = { toolName: "Read", workspace, context, intent: "read" as const };
  const resolved = context.paths.resolve(input.path, { intent: "read", label: "Read path" });
  if (!isWorkspaceScope(resolved)) return local(resolved);
  try {
    const target = await workspaceTarget(errorCall, resolved);
    if (!target.exists) throw await workspaceNotFound(errorCall, resolved);
    const stats = await workspace.fs.stat(target.key);
    if (stats.type === "directory") {
      throw new ToolError(
        "not_a_file",
        `Read failed: ${resolved.displayPath} is a directory. Use List path="${resolved.displayPath}" to see its entries, then Read a file inside it.`,
      );
    }
    assertWorkspaceRegularFile("Read", resolved.displayPath, stats);
    const archive = archiveKind(path.basename(resolved.absolutePath));
    if (archive === "zip" || archive === "tar" || archive === "tar.gz") {
      throw new ToolError(
        "unsupported_target",
        `Read cannot list archives on the workspace ${workspace.label} yet: ${resolved.displayPath} is a ${archive} archive. List it with Bash (for example: unzip -l, or tar -tf).`,
        { details: { path: resolved.displayPath } },
      );
    }
    const source = workspaceReadSource(workspace, { key: target.key, stats, hash: environment.fastIo.contentHash, signal: context.signal });
    return await readSource(source, stats.size, { input, resolved, context, environment });
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}
