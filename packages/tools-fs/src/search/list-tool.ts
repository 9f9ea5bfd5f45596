import { defineTool } from "@agent-tools/core";
import { z } from "zod";
import { toFsToolError } from "../shared/fs-errors.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { comparePaths, joinDisplay, walkTree } from "./file-walker.js";
import { resolveSearchBase } from "./search-base.js";

/** List's input schema. */
export const listInputSchema = z.object({
  path: z
    .string()
    .optional()
    .describe(
      "Directory (default: the workspace root): workspace-relative, root://<alias>/..., or absolute inside the workspace (or the uploads folder's absolute path, read-only).",
    ),
  depth: z.number().int().min(1).default(2).describe("Levels to descend (default 2; 1 = direct children)."),
  offset: z.number().int().min(0).default(0).describe("Entries to skip."),
  max_results: z.number().int().min(1).default(200).describe("Entries to return (default 200)."),
});

/** Details of a List result. */
export interface ListDetails {
  kind: "list";
  path: string;
  depth: number;
  totalEntries: number;
  returned: number;
  offset: number;
  hasMore: boolean;
}

const DESCRIPTION = `Lists a directory's entries sorted by path, as "[DIR] path", "[FILE] path" or "[LINK] path" lines; paged with offset and max_results.
Honours .gitignore, .ignore and .git/info/exclude (even outside git); skips .git; includes dot-files; lists symlinks without following them. To find files by pattern, use Glob.`;

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
      const base = await resolveSearchBase("List", input.path, "list", context);
      if (base.fileName !== undefined) {
        const text = `Note: ${base.resolved.displayPath} is a file, so it lists only itself.\n[FILE] ${base.resolved.displayPath}`;
        return {
          content: text,
          details: { kind: "list" as const, path: base.resolved.displayPath, depth: input.depth, totalEntries: 1, returned: 1, offset: 0, hasMore: false },
        };
      }
      let entries;
      try {
        entries = await walkTree(base.directory, {
          maxDepth: input.depth,
          includeAll: true,
          signal: context.signal,
          caches: environment.searchCaches,
          exclude: base.excluded,
        });
      } catch (error) {
        throw toFsToolError("List", error, base.resolved, context);
      }
      entries.sort((a, b) => comparePaths(a.relativePath, b.relativePath));
      const page = entries.slice(input.offset, input.offset + input.max_results);
      const hasMore = input.offset + input.max_results < entries.length;
      const tag = { directory: "[DIR]", file: "[FILE]", symlink: "[LINK]" } as const;
      const lines = page.map((entry) => `${tag[entry.kind]} ${joinDisplay(base.displayDirectory, entry.relativePath)}`);
      let text =
        entries.length === 0
          ? `${base.displayDirectory} is empty (or every entry is ignored).`
          : `${base.displayDirectory}: ${entries.length} entries (depth ${input.depth})${page.length ? `, showing ${input.offset + 1}-${input.offset + page.length}` : `; offset=${input.offset} is past the end`}`;
      if (lines.length) text += `\n${lines.join("\n")}`;
      if (hasMore) text += `\n...more entries omitted; continue with offset=${input.offset + page.length}...`;
      return {
        content: text,
        details: {
          kind: "list" as const,
          path: base.displayDirectory,
          depth: input.depth,
          totalEntries: entries.length,
          returned: page.length,
          offset: input.offset,
          hasMore,
        },
      };
    },
  });
}
