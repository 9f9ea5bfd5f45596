/**
 * NotebookEdit on a workspace that is not the local disk: the notebook is
 * read through the workspace under its lock, checked against the version
 * the model read, spliced as on the local disk, and committed through the
 * workspace's atomic write.
 */
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, workspaceTarget } from "../workspace/workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "../workspace/workspace-errors.js";
import { mutateInWorkspace } from "../workspace/workspace-mutation.js";
import { type NotebookEditDetails, assertNotebookCurrent, notebookEditResult } from "./notebook-edit-result.js";
import { assertNotebookPath } from "./notebook-parse.js";
import { type NotebookEditInput, planNotebookEdit } from "./notebook-plan.js";

/** One NotebookEdit call on a workspace. */
export interface WorkspaceNotebookEditCall {
  readonly workspace: Workspace;
  readonly input: NotebookEditInput & { path: string };
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Edits a path of the host's own folders (`skill://`) as on the local disk. */
  readonly local: (resolved: ResolvedPath) => Promise<{ content: string; details: NotebookEditDetails }>;
}

/** NotebookEdit of `input.path` in the workspace. */
export async function notebookEditInWorkspace(call: WorkspaceNotebookEditCall) {
  const { workspace, input, context, environment } = call;
  const errorCall = { toolName: "NotebookEdit", workspace, context, intent: "edit" as const };
  const resolved = context.paths.resolve(input.path, { intent: "edit", label: "NotebookEdit path" });
  if (!isWorkspaceScope(resolved)) return call.local(resolved);
  try {
    assertNotebookPath(resolved.displayPath);
    const target = await workspaceTarget(errorCall, resolved);
    if (!target.exists) throw await workspaceNotFound(errorCall, resolved);
    return await mutateInWorkspace({ toolName: "NotebookEdit", target, context, environment, followLeaf: true }, async (file) => {
      if (!file.stats) throw await workspaceNotFound(errorCall, resolved);
      const stats = file.stats;
      assertWorkspaceRegularFile("NotebookEdit", resolved.displayPath, stats);
      const bytes = await file.readBytes();
      await assertNotebookCurrent(file, stats, bytes, context);
      const plan = planNotebookEdit(bytes, input, resolved.displayPath);
      return notebookEditResult({ input, resolved }, plan, await file.commit(plan.pieces));
    });
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}
