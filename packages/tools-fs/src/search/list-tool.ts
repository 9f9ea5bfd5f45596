import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { toFsToolError } from "../shared/fs-errors.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { walkTree } from "./file-walker.js";
import { type ListDetails, renderList, renderListOfFile } from "./list-render.js";

export type { ListDetails };
import { resolveSearchBase } from "./search-base.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { listInWorkspace } from "../workspace/workspace-list.js";

/** List's input schema. */
export const listInputSchema = z.object({
  path: z
    .string()
    .optional()
    .describe(
      "Directory (default: the workspace root): workspace-relative, root://<alias>/..., or absolute inside the workspace (or the uploads folder's absolute path, read-only).",
    ),
  depth: z.number().int().min(1).default(2).describe("Levels to descend (default 2; 1 = direct children)."),
  offset: z.number().int().min(0).default(0),
  max_results: z.number().int().min(1).default(200).describe("Entries to return (default 200)."),
});

const DESCRIPTION = `Lists a directory's entries ([DIR], [FILE], [LINK]) sorted by path, paged with offset and max_results.
Honours .gitignore, .ignore and .git/info/exclude (even outside git); skips .git; includes dot-files; lists symlinks without following.`;

/** Creates the List tool for one bundle. */
export function createListTool(environment: FsToolEnvironment) {
  return defineTool<typeof listInputSchema, ListDetails>({
    name: "List",
    description: DESCRIPTION,
    inputSchema: listInputSchema,
    metadata: {
      groupId: "fs",
      kind: "list",
      isReadOnly: true,
      displayCategory: "file",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const answer = await listInWorkspace(workspace, input, context, environment);
        if (answer) return answer;
      }
      const base = await resolveSearchBase("List", input.path, "list", context);
      if (base.fileName !== undefined) return renderListOfFile(base.resolved.displayPath, input.depth);
      let entries;
      try {
        entries = await walkTree(base.directory, {
          maxDepth: input.depth,
          includeAll: true,
          signal: context.signal,
          caches: environment.searchCaches,
          exclude: base.excluded,
          ignoreBoundary: base.ignoreBoundary,
        });
      } catch (error) {
        throw toFsToolError("List", error, base.resolved, context);
      }
      return renderList(entries, input, base.displayDirectory);
    },
  });
}
