import { lstat, rm, unlink } from "node:fs/promises";
import { ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { notFoundError, onResolvedPath } from "../shared/fs-errors.js";
import { type FsToolEnvironment, stateKey } from "../shared/tool-environment.js";

/** Delete's input schema. */
export const deleteInputSchema = z.object({
  path: z.string().describe("File, symlink or directory to delete: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace. Directories are deleted recursively; a symlink is removed itself, never its target."),
});

/** Details of a Delete result. */
export interface DeleteDetails {
  kind: "delete";
  path: string;
  absolutePath: string;
  targetKind: "file" | "directory" | "symlink";
}

const DESCRIPTION = `Deletes a file, a symlink (the link itself, not its target) or a directory (recursively, with everything inside).
Always use Delete to remove files instead of rm, git rm or Remove-Item in a shell: Delete keeps the record of edited files accurate.
Paths: workspace-relative, root://<alias>/... (write roots only), or absolute inside the workspace. The workspace root itself cannot be deleted.`;

/** Creates the Delete tool for one bundle. */
export function createDeleteTool(environment: FsToolEnvironment) {
  return defineTool<typeof deleteInputSchema, DeleteDetails>({
    name: "Delete",
    description: DESCRIPTION,
    inputSchema: deleteInputSchema,
    metadata: { groupId: "fs", kind: "delete", isReadOnly: false, displayCategory: "file" },
    async execute(input, context) {
      return onResolvedPath("Delete", input.path, "delete", context, async (resolved) => {
        if (resolved.relativePath === "" && resolved.scope !== "external") {
          throw new ToolError("unsupported_target", `Delete refused: ${resolved.displayPath} is the root directory itself. Delete files or folders inside it instead.`);
        }
        const info = await lstat(resolved.absolutePath).catch((error: { code?: string }) => {
          if (error.code === "ENOENT") throw notFoundError("Delete", resolved, context);
          throw error;
        });
        let targetKind: DeleteDetails["targetKind"];
        if (info.isSymbolicLink()) {
          targetKind = "symlink";
          await unlink(resolved.absolutePath);
          environment.state.clear(resolved.absolutePath);
        } else if (info.isFile()) {
          targetKind = "file";
          const key = stateKey(resolved.absolutePath);
          await unlink(resolved.absolutePath);
          environment.state.clear(key);
        } else if (info.isDirectory()) {
          targetKind = "directory";
          const key = stateKey(resolved.absolutePath);
          await rm(resolved.absolutePath, { recursive: true, force: false });
          environment.state.clearUnder(key);
        } else {
          throw new ToolError("unsupported_target", `Delete refused: ${resolved.displayPath} is not a regular file, directory or symlink. Only regular files, directories, or symlinks can be deleted.`);
        }
        return {
          content: `Deleted ${targetKind}: ${resolved.displayPath}`,
          details: { kind: "delete" as const, path: resolved.displayPath, absolutePath: resolved.absolutePath, targetKind },
        };
      });
    },
  });
}
