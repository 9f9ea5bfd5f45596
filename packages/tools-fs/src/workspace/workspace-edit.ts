/**
 * Edit on a workspace that is not the local disk: the file is read through
 * the workspace under its lock, matched and planned by the same tolerant
 * matcher as on the local disk, and committed through the workspace's
 * atomic write; the answer is the local Edit's.
 */
import { type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { EditInput } from "../edit/edit-plan.js";
import { planEdit } from "../edit/edit-plan.js";
import { editResult } from "../edit/edit-result.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";
import { mutateInWorkspace } from "./workspace-mutation.js";

/** One Edit call on a workspace. */
export interface WorkspaceEditCall<T> {
  readonly workspace: Workspace;
  readonly input: EditInput & { path: string };
  readonly context: ToolContext;
  readonly environment: FsToolEnvironment;
  /** Edits a path of the host's own folders (`skill://`) as the local Edit does. */
  readonly local: (resolved: ResolvedPath) => Promise<T>;
}

/** Edit of `input.path` in the workspace. */
export async function editInWorkspace<T>(call: WorkspaceEditCall<T>) {
  const { workspace, input, context, environment } = call;
  const errorCall = { toolName: "Edit", workspace, context, intent: "edit" as const };
  const resolved = context.paths.resolve(input.path, { intent: "edit", label: "Edit path" });
  if (!isWorkspaceScope(resolved)) return call.local(resolved);
  try {
    if (input.old_string === "") {
      throw new ToolError(
        "invalid_arguments",
        "Edit needs a non-empty old_string. To create a file use Write; to add text, include an existing neighbouring line in old_string and repeat it in new_string.",
      );
    }
    const target = await workspaceTarget(errorCall, resolved);
    if (!target.exists) throw await workspaceNotFound(errorCall, resolved);
    return await mutateInWorkspace({ toolName: "Edit", target, context, environment, followLeaf: true }, async (file) => {
      if (!file.stats) throw await workspaceNotFound(errorCall, resolved);
      const stats = file.stats;
      assertWorkspaceRegularFile("Edit", resolved.displayPath, stats);
      const bytes = await file.readBytes();
      const plan = await planEdit({ input, file, content: { bytes, stats }, context });
      const version = await file.commit(plan.pieces);
      return editResult({ input, resolved }, plan, version);
    });
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}
