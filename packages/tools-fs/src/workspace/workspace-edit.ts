/**
 * Edit on a workspace that is not the local disk: the file is read through
 * the workspace under its lock, matched and planned by the same tolerant
 * matcher as on the local disk, and committed through the workspace's
 * atomic write; the answer is the local Edit's (both forms: one pair, or
 * `edits` applied in order, all or none).
 */
import type { ResolvedPath, ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { type EditArguments, editFormOf } from "../edit/edit-form.js";
import { planEdit } from "../edit/edit-plan.js";
import { editResult, multiEditResult } from "../edit/edit-result.js";
import { planMultiEdit } from "../edit/multi-edit-plan.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { assertWorkspaceRegularFile, isWorkspaceScope, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";
import { mutateInWorkspace } from "./workspace-mutation.js";

/** One Edit call on a workspace. */
export interface WorkspaceEditCall<T> {
  readonly workspace: Workspace;
  readonly input: EditArguments & { path: string };
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
    const form = editFormOf(input);
    const target = await workspaceTarget(errorCall, resolved);
    if (!target.exists) throw await workspaceNotFound(errorCall, resolved);
    return await mutateInWorkspace({ toolName: "Edit", target, context, environment, followLeaf: true }, async (file) => {
      if (!file.stats) throw await workspaceNotFound(errorCall, resolved);
      const stats = file.stats;
      assertWorkspaceRegularFile("Edit", resolved.displayPath, stats);
      const bytes = await file.readBytes();
      if (form.kind === "single") {
        const plan = await planEdit({ input: form.edit, file, content: { bytes, stats }, context });
        return editResult({ input: form.edit, resolved }, plan, await file.commit(plan.pieces));
      }
      const plan = await planMultiEdit({ edits: form.edits, file, content: { bytes, stats }, context });
      return multiEditResult({ edits: form.edits, resolved }, plan, await file.commit(plan.pieces));
    });
  } catch (error) {
    throw await workspaceToolError(errorCall, error, resolved);
  }
}
