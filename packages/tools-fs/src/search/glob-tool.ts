import { ToolError, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { toFsToolError } from "../shared/fs-errors.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { listFiles } from "./list-files.js";
import { type GlobDetails, compileGlob, renderGlob } from "./glob-render.js";

export type { GlobDetails };
import { resolveSearchBase } from "./search-base.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, globProgress } from "./search-progress.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { globInWorkspace } from "../workspace/workspace-list.js";

/** Glob's input schema. */
export const globInputSchema = z.object({
  pattern: z.string().min(1).describe('Relative to the search directory, e.g. "src/**/*.test.ts", "*.{json,yaml}".'),
  path: z.string().optional().describe("Directory to search (default: the workspace root); a file searches its directory."),
  offset: z.number().int().min(0).default(0),
  max_results: z.number().int().min(1).default(200).describe("Results to return (default 200)."),
  sort_by: z.string().default("path").describe('Only "path".'),
});

const DESCRIPTION = `Finds files (not directories) by glob, sorted by path, paged with offset and max_results (the result says when more remain). "*" matches within one path segment, "**" across directories; a pattern without "/" matches file names at any depth.
Honours .gitignore, .ignore and .git/info/exclude (even outside git); skips .git; includes dot-files; does not follow symlinks.`;

/** Options of {@link createGlobTool}. */
export interface GlobToolOptions {
  /** Milliseconds before the first progress update and between two (see `FsToolBundleOptions.progressIntervalMs`); default one second. */
  progressIntervalMs?: number;
}

/** Creates the Glob tool for one bundle. */
export function createGlobTool(environment: FsToolEnvironment, options: GlobToolOptions = {}) {
  return defineTool<typeof globInputSchema, GlobDetails>({
    name: "Glob",
    description: DESCRIPTION,
    inputSchema: globInputSchema,
    metadata: {
      groupId: "fs",
      kind: "search",
      isReadOnly: true,
      displayCategory: "search",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    async execute(input, context) {
      if (input.sort_by !== "path") throw new ToolError("invalid_arguments", `Glob.sort_by only supports path (got "${input.sort_by}").`);
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const answer = await globInWorkspace(workspace, input, context, { environment, progressIntervalMs: options.progressIntervalMs });
        if (answer) return answer;
      }
      const pattern = input.pattern.replace(/\\/g, "/").replace(/^\.\//, "");
      const base = await resolveSearchBase("Glob", input.path, "search", context);
      const matcher = compileGlob(pattern, input.pattern);
      let matched: string[];
      const progress = globProgress(options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, (update) => context.onUpdate(update));
      const { counts } = progress;
      try {
        // Files are matched as the walk finds them, so the progress counts matches too.
        matched = await listFiles(base.directory, {
          signal: context.signal,
          caches: environment.searchCaches,
          exclude: base.excluded,
          ignoreBoundary: base.ignoreBoundary,
          keep: (file) => {
            counts.filesWalked += 1;
            const match = matcher.match(file);
            if (match) counts.totalMatches += 1;
            progress.changed();
            return match;
          },
          onDirectory: () => {
            counts.directoriesWalked += 1;
            progress.changed();
          },
        });
      } catch (error) {
        throw toFsToolError("Glob", error, base.resolved, context);
      } finally {
        progress.stop();
      }
      return renderGlob(matched, input, base.displayDirectory);
    },
  });
}
