/**
 * Image's `path` sources on a workspace that is not the local disk: the
 * file is found, checked and read through the workspace (at most 25 MB),
 * with the local Image's answers for a missing file, a directory or a
 * special file.
 */
import { type ResolvedPath, ToolError, type ToolContext } from "@agent-tools/core";
import { type Workspace, isWithinWorkspacePath } from "@agent-tools/core/workspace";
import { MAX_IMAGE_BYTES } from "../shared/image-data.js";
import { assertWorkspaceRegularFile, workspaceTarget } from "./workspace-call.js";
import { workspaceNotFound, workspaceToolError } from "./workspace-errors.js";

/** The bytes of the image file `resolved` names in the workspace. */
export async function readWorkspaceImage(workspace: Workspace, resolved: ResolvedPath, context: ToolContext): Promise<Buffer> {
  const call = { toolName: "Image", workspace, context, intent: "image" as const };
  if (resolved.scope === "external" && !isWithinWorkspacePath(workspace.root, resolved.absolutePath)) {
    throw new ToolError(
      "out_of_bounds",
      `Image failed: ${resolved.displayPath} is outside the workspace ${workspace.label} (root ${workspace.root}); on a workspace that is not this machine Image reads files inside the workspace only. Pass a path inside it, or a url or base64 source.`,
      { details: { path: resolved.displayPath } },
    );
  }
  try {
    const target = await workspaceTarget(call, resolved);
    if (!target.exists) throw await workspaceNotFound(call, resolved);
    const stats = await workspace.fs.stat(target.key);
    assertWorkspaceRegularFile("Image", resolved.displayPath, stats);
    if (stats.size > MAX_IMAGE_BYTES) throw new ToolError("too_large", `Image failed: ${resolved.displayPath} is ${stats.size} bytes; at most 25 MB is shown.`);
    return await workspace.fs.readFile(target.key, { signal: context.signal });
  } catch (error) {
    throw await workspaceToolError(call, error, resolved);
  }
}
