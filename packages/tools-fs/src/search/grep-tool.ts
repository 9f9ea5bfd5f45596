import path from "node:path";
import { type ResolvedPath, defineTool } from "@agent-tools/core";
import { z } from "zod";
import { anchorTarget, openTarget } from "../file-engine/anchored-target.js";
import { toFsToolError } from "../shared/fs-errors.js";
import { descriptorPath } from "../shared/regular-file.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { type GrepEngineOptions, compileGrepPattern, grepWithTypeScript, hitsOfBytes, searchBytes } from "./grep-engine.js";
import { grepAnswer } from "./grep-answer.js";
import { fileFilter, judgedOnce } from "./grep-file-filter.js";
import { remoteWorkspace } from "../workspace/workspace-call.js";
import { grepInWorkspace } from "../workspace/workspace-grep.js";
import type { GrepFileHits } from "./grep-result.js";
import type { GrepQuery } from "./grep-ripgrep.js";
import { grepWithRipgrepPaged } from "./grep-ripgrep-paged.js";
import { cannotBacktrack } from "./grep-regex-budget.js";
import type { GrepWorkerHost } from "./grep-worker-host.js";
import { resolveSearchBase } from "./search-base.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, grepProgress } from "./search-progress.js";

/** Grep's input schema. */
export const grepInputSchema = z.object({
  pattern: z.string().min(1).describe("Escape ( [ . * + ? { | for literals."),
  path: z.string().optional().describe("Directory or file to search (default: the workspace root)."),
  file_pattern: z.string().optional().describe('Globs relative to path, "|"-separated, e.g. "*.ts|src/**/*.py".'),
  ignore_case: z.boolean().default(true),
  output_mode: z
    .enum(["content", "files", "count"])
    .default("content")
    .describe('"content": path:line: text (default); "files": paths with counts; "count": totals.'),
  head_limit: z.number().int().min(1).default(200).describe("Lines or files to return (default 200)."),
  offset: z.number().int().min(0).default(0),
  context: z.number().int().min(0).max(20).default(0).describe("Lines around each match."),
  multiline: z.boolean().default(false).describe("Match across lines (. matches newlines)."),
});

/** Details of a Grep result. */
export interface GrepDetails {
  kind: "grep";
  pattern: string;
  path: string;
  outputMode: "content" | "files" | "count";
  matchCount: number;
  fileCount: number;
  returned: number;
  offset: number;
  hasMore: boolean;
  engine: "ripgrep" | "typescript";
}

const DESCRIPTION = `Searches file contents by regular expression (Rust syntax: no look-around or backreferences), case-insensitive unless ignore_case=false. Matches are sorted by path, then line; lines are cut at 400 characters.
- Paged with head_limit and offset: matchCount and fileCount are totals before paging; the result says how to continue.
- Honours .gitignore, .ignore and .git/info/exclude (even outside git); skips .git and binary files; does not follow symlinks.`;

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions {
  /** The bundle's worker threads, which match patterns that may backtrack. */
  workers: GrepWorkerHost;
  /** Regex time budget of one call of the pure TypeScript engine (see `FsToolBundleOptions.regexTimeBudgetMs`). */
  regexTimeBudgetMs?: number;
  /** Milliseconds before the first progress update and between two (see `FsToolBundleOptions.progressIntervalMs`); default one second. */
  progressIntervalMs?: number;
}

/** Creates the Grep tool for one bundle. */
export function createGrepTool(environment: FsToolEnvironment, options: GrepToolOptions) {
  const engineOptions: GrepEngineOptions = { workers: options.workers, regexTimeBudgetMs: options.regexTimeBudgetMs, caches: environment.searchCaches };
  return defineTool<typeof grepInputSchema, GrepDetails>({
    name: "Grep",
    description: DESCRIPTION,
    inputSchema: grepInputSchema,
    metadata: {
      groupId: "fs",
      kind: "search",
      isReadOnly: true,
      displayCategory: "search",
      annotations: { readOnly: true, listedInPlanMode: true, openWorld: false },
    },
    loopKey: (input) => `${input.path ?? "."}|${input.pattern}`,
    async execute(input, context) {
      const workspace = remoteWorkspace(context);
      if (workspace) {
        const answer = await grepInWorkspace(workspace, input, context, {
          environment,
          progressIntervalMs: options.progressIntervalMs,
          workers: options.workers,
          regexTimeBudgetMs: options.regexTimeBudgetMs,
        });
        if (answer) return answer;
      }
      const base = await resolveSearchBase("Grep", input.path, "search", context);
      const { filter, prefilter } = fileFilter(input.file_pattern);
      const query: GrepQuery = {
        pattern: input.pattern,
        ignoreCase: input.ignore_case,
        multiline: input.multiline,
        context: input.output_mode === "content" ? input.context : 0,
        prefilterGlobs: prefilter,
        excludeDirectories: [...base.excluded],
        signal: context.signal,
      };
      let hits: GrepFileHits[];
      // The host's own folders (skill://, uploads; on any workspace) are searched in this process: no local
      // program starts for a registry on a non-local workspace, and the walk reads no ignore file above the folder.
      const ripgrepPath = workspace !== undefined || base.ignoreBoundary !== undefined ? null : environment.ripgrepPath;
      let engine: GrepDetails["engine"] = ripgrepPath ? "ripgrep" : "typescript";
      const progress = grepProgress(options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, base.fileName !== undefined || !ripgrepPath, (update) =>
        context.onUpdate(update),
      );
      const found = (matchCount: number) => {
        progress.counts.matchCount += matchCount;
        progress.counts.fileCount += 1;
        progress.changed();
      };
      const scanning: GrepEngineOptions = {
        ...engineOptions,
        progress: {
          scanned: () => {
            progress.counts.filesScanned += 1;
            progress.changed();
          },
          file: found,
        },
      };
      try {
        if (base.fileName !== undefined) {
          engine = "typescript";
          const regex = compileGrepPattern(query.pattern, query.ignoreCase, query.multiline);
          hits = await grepOneFile(base.resolved, base.fileName, { query, regex, scanning });
        } else if (ripgrepPath) {
          hits = await grepWithRipgrepPaged(
            {
              rgPath: ripgrepPath,
              directory: base.directory,
              query,
              // The progress counter and the result both ask about each file with a match: judge each once.
              filter: input.file_pattern ? judgedOnce(filter) : filter,
            },
            { outputMode: input.output_mode, offset: input.offset, headLimit: input.head_limit, maxChars: context.maxOutputChars },
            { progress: { newPass: () => progress.newPass(), file: found } },
          );
        } else {
          hits = await grepWithTypeScript(base.directory, query, filter, { ...scanning, ignoreBoundary: base.ignoreBoundary });
        }
      } catch (error) {
        throw toFsToolError("Grep", error, base.resolved, context);
      } finally {
        progress.stop();
      }
      return grepAnswer(hits, {
        input,
        base,
        context: query.context,
        engine,
        maxChars: context.maxOutputChars,
        caches: environment.searchCaches,
      });
    },
  });
}

/**
 * Grep of one named file, opened through its pinned directory and never by
 * name again (a symlink swapped in after the path check is refused, as Read
 * refuses it), read here so that an unreadable file is reported, not skipped.
 * A pattern that may backtrack runs on the worker, which reads the opened
 * file through its descriptor; its hit is named as the model named the file.
 */
async function grepOneFile(
  resolved: ResolvedPath,
  fileName: string,
  search: { query: GrepQuery; regex: RegExp; scanning: GrepEngineOptions },
): Promise<GrepFileHits[]> {
  const target = anchorTarget(resolved, { toolName: "Grep", followLeaf: true });
  try {
    const { handle } = await openTarget("Grep", resolved.displayPath, target);
    try {
      const bytes = await handle.readFile();
      if (bytes.indexOf(0) !== -1) return []; // binary
      if (cannotBacktrack(search.query.pattern)) {
        const found = searchBytes(fileName, bytes, search.regex, search.query.multiline);
        return found ? [found] : [];
      }
      const found = await grepWithTypeScript(path.dirname(descriptorPath(handle)), search.query, () => true, {
        ...search.scanning,
        files: [String(handle.fd)],
      });
      // Lines shown from the bytes read here (the descriptor closes before the answer is rendered).
      return found.map((hit) => hitsOfBytes(fileName, bytes, hit.matchLines()));
    } finally {
      await handle.close();
    }
  } finally {
    target.close();
  }
}
