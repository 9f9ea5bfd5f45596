import { unlink } from "node:fs/promises";
import { type ResolvedPath, ToolError, type ToolContext, defineTool } from "@agent-tools/core";
import type { EditDiagnosticsDetails } from "@agent-tools/core/diagnostics";
import { z } from "zod";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import { FileEngine } from "../file-engine/file-engine.js";
import { describeFileType } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { listTree } from "./list-tree.js";
import { removeEntry } from "./remove-tree.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { deleteInWorkspace } from "../workspace/workspace-delete.js";

/** Delete's input schema. */
export const deleteInputSchema = z.object({
  path: z.string().describe("Workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace."),
});

/** Details of a Delete result. */
export interface DeleteDetails {
  kind: "delete";
  path: string;
  absolutePath: string;
  targetKind: "file" | "directory" | "symlink";
  /** What the deletion broke (importers of the file), when a diagnostics provider answered. */
  diagnostics?: EditDiagnosticsDetails;
}

const DESCRIPTION = `Deletes a file, a symlink (the link, not its target) or a directory with everything inside. The workspace root cannot be deleted.
Use Delete instead of rm, git rm or Remove-Item: it keeps the edited-files record accurate.`;

/** Creates the Delete tool for one bundle. */
export function createDeleteTool(environment: FsToolEnvironment) {
  const engine = new FileEngine(environment);
  return defineTool<typeof deleteInputSchema, DeleteDetails>({
    name: "Delete",
    description: DESCRIPTION,
    inputSchema: deleteInputSchema,
    metadata: {
      groupId: "fs",
      kind: "delete",
      isReadOnly: false,
      displayCategory: "file",
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false, listedInPlanMode: false },
    },
    // Not idempotent for durable runs: run again after a crash it could delete a file made at that path in between.
    effects: "unsafe",
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const local = (resolved: ResolvedPath) =>
          onResolvedPath({ toolName: "Delete", path: input.path, intent: "delete", context }, () => deleteResolved(resolved, context, environment, engine));
        return deleteInWorkspace({ workspace, input, context, environment, local });
      }
      return onResolvedPath({ toolName: "Delete", path: input.path, intent: "delete", context }, (resolved) =>
        deleteResolved(resolved, context, environment, engine),
      );
    },
  });
}

/** Delete of a resolved path on the local disk. */
async function deleteResolved(resolved: ResolvedPath, context: ToolContext, environment: FsToolEnvironment, engine: FileEngine) {
  if (resolved.relativePath === "" && resolved.scope !== "external") {
    throw new ToolError(
      "unsupported_target",
      `Delete refused: ${resolved.displayPath} is the root directory itself. Delete files or folders inside it instead.`,
    );
  }
  const targetKind = await engine.mutate({ toolName: "Delete", resolved, context, followLeaf: false }, async (file) => {
    const { target } = file;
    const info = target.stats;
    if (!info) throw notFoundError("Delete", resolved, context);
    let kind: DeleteDetails["targetKind"];
    if (info.isSymbolicLink()) kind = "symlink";
    else if (info.isFile()) kind = "file";
    else if (info.isDirectory()) kind = "directory";
    else {
      throw new ToolError(
        "unsupported_target",
        `Delete refused: ${resolved.displayPath} is ${describeFileType(info)}. Only regular files, directories, or symlinks can be deleted.`,
      );
    }
    const recorded = () => (kind === "directory" ? listTree(target.canonicalPath, target.entryPath) : [target.canonicalPath]);
    await file.recordChange(recorded, async () => {
      if (kind === "directory") {
        await removeEntry(target.directory, target.name);
        environment.state.clearUnder(target.canonicalPath);
      } else {
        await unlink(target.entryPath);
        environment.state.clear(target.canonicalPath);
        if (kind === "symlink") environment.state.clear(resolved.absolutePath);
      }
    });
    return kind;
  });
  return {
    content: `Deleted ${targetKind}: ${resolved.displayPath}`,
    details: { kind: "delete" as const, path: resolved.displayPath, absolutePath: resolved.absolutePath, targetKind },
  };
}
