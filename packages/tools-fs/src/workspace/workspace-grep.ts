/**
 * Grep on a workspace that is not the local disk. With ripgrep in the
 * workspace (`capabilities.ripgrep` and its processes) the local ripgrep
 * path runs there as it runs here (same arguments, same page-sized runs,
 * same output parsers; see `grepWithRipgrepPaged`), so no file is read
 * through the file system. Without it (or when `rg` does not start) the
 * ignore-aware walk lists the files, each is read through the file system
 * and matched by the pure TypeScript matcher. On a workspace whose opens
 * are anchored (`capabilities.anchoredOpens`) ripgrep only names the files
 * with a match: each is read through the workspace's file system and
 * matched here (see `ripgrepCandidateFiles`), so a file ripgrep reached
 * through a folder swapped for a symlink to outside is refused, never
 * shown. Either way the answer is rendered by the local Grep's renderer,
 * so the text is the local one.
 */
import { posix } from "node:path";
import type { ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { compileGrepPattern, searchBytes } from "../search/grep-engine.js";
import { fileFilter, judgedOnce } from "../search/grep-file-filter.js";
import { DEFAULT_REGEX_TIME_BUDGET_MS, cannotBacktrack } from "../search/grep-regex-budget.js";
import type { GrepWorkerHost } from "../search/grep-worker-host.js";
import { grepAnswer } from "../search/grep-answer.js";
import type { GrepFileHits } from "../search/grep-result.js";
import { grepWithRipgrepPaged } from "../search/grep-ripgrep-paged.js";
import type { SearchBase } from "../search/search-base.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, grepProgress } from "../search/search-progress.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { workspaceToolError } from "./workspace-errors.js";
import { ripgrepCandidateFiles } from "./workspace-grep-candidates.js";
import { type ReadCandidate, type WorkerMatch, matchOnWorker } from "./workspace-grep-worker.js";
import { RipgrepNotStartedError, workspaceProgramRunner } from "./workspace-program-runner.js";
import { resolveWorkspaceSearchBase } from "./workspace-search-base.js";
import { walkWorkspaceTree } from "./workspace-walk.js";

/** Files read at the same time. */
const PARALLEL_READS = 8;

/** Grep's arguments (after defaults). */
interface GrepInput {
  pattern: string;
  path?: string;
  file_pattern?: string;
  ignore_case: boolean;
  output_mode: "content" | "files" | "count";
  head_limit: number;
  offset: number;
  context: number;
  multiline: boolean;
}

/** What one search needs. */
interface GrepSearch {
  workspace: Workspace;
  base: SearchBase;
  input: GrepInput;
  context: ToolContext;
  regex: RegExp;
  /** Set when the pattern may backtrack: it is matched on a worker thread. */
  worker: WorkerMatch | undefined;
}

/** Bytes of read files handed to the worker thread at once. */
const WORKER_BATCH_BYTES = 8 * 1024 * 1024;

/** The files below the base the ignore-aware walk keeps (relative, `/`-separated). */
async function walkedCandidates(search: GrepSearch, filter: (relative: string) => boolean, scanned: () => void): Promise<string[]> {
  const { workspace, base, context } = search;
  const files: string[] = [];
  await walkWorkspaceTree(workspace.fs, workspace.root, base.directory, {
    signal: context.signal,
    collect: false,
    exclude: base.excluded,
    onFile: (relative) => {
      if (!filter(relative)) return;
      scanned();
      files.push(relative);
    },
  });
  return files;
}

/**
 * Reads and matches each candidate through the workspace, a few at a time;
 * unreadable files are skipped, as ripgrep skips them. A pattern that may
 * backtrack is matched on a worker thread within the regex time budget, a
 * batch of read files at a time.
 */
async function searchCandidates(search: GrepSearch, candidates: readonly string[], found: (hits: GrepFileHits) => void): Promise<GrepFileHits[]> {
  const { workspace, base, input, context, regex } = search;
  const hits: GrepFileHits[] = [];
  let pending: ReadCandidate[] = [];
  let pendingBytes = 0;
  let matching: Promise<void> = Promise.resolve();
  const flush = () => {
    const batch = pending;
    pending = [];
    pendingBytes = 0;
    matching = matching.then(async () => {
      for (const hit of await matchOnWorker(search.worker!, batch)) {
        hits.push(hit);
        found(hit);
      }
    });
    return matching;
  };
  let next = 0;
  const reader = async () => {
    while (next < candidates.length) {
      if (context.signal.aborted) throw context.signal.reason ?? new Error("aborted");
      const relative = candidates[next++]!;
      let bytes: Buffer;
      try {
        bytes = await workspace.fs.readFile(posix.join(base.directory, relative), { signal: context.signal });
      } catch {
        continue;
      }
      if (search.worker) {
        if (bytes.indexOf(0) !== -1) continue; // binary
        pending.push({ relative, bytes });
        pendingBytes += bytes.length;
        if (pendingBytes >= WORKER_BATCH_BYTES) await flush();
        continue;
      }
      const hit = searchBytes(relative, bytes, regex, input.multiline);
      if (hit) {
        hits.push(hit);
        found(hit);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, candidates.length) }, reader));
  if (search.worker) await flush();
  return hits;
}

/** What the reading path reports to the call's progress. */
interface ReadingProgress {
  filter: (relative: string) => boolean;
  found: (hit: GrepFileHits) => void;
  progress: ReturnType<typeof grepProgress>;
}

/** Where a reading Grep runs, and the files ripgrep named (`candidates`) when it named them. */
interface ReadingPlace {
  readonly workspace: Workspace;
  readonly base: SearchBase;
  readonly context: ToolContext;
  readonly candidates?: readonly string[];
}

/**
 * Grep by reading: a named file, or the files the walk lists (or
 * `candidates`, the files ripgrep named), read through the workspace and
 * matched here (a pattern that may backtrack on the bundle's worker
 * thread, within the regex time budget).
 */
async function grepByReading(where: ReadingPlace, input: GrepInput, options: WorkspaceGrepOptions, reporting: ReadingProgress): Promise<GrepFileHits[]> {
  const { workspace, base, context, candidates } = where;
  const { filter, found, progress } = reporting;
  const regex = compileGrepPattern(input.pattern, input.ignore_case, input.multiline);
  const budgetMs = options.regexTimeBudgetMs ?? DEFAULT_REGEX_TIME_BUDGET_MS;
  const worker: WorkerMatch | undefined = cannotBacktrack(input.pattern)
    ? undefined
    : {
        workers: options.workers,
        regex,
        pattern: input.pattern,
        ignoreCase: input.ignore_case,
        multiline: input.multiline,
        budgetMs,
        deadline: Date.now() + budgetMs,
        signal: context.signal,
      };
  const search: GrepSearch = { workspace, base, input, context, regex, worker };
  if (base.fileName !== undefined) {
    // A named file is read here, so an unreadable file is reported, not skipped.
    const bytes = await workspace.fs.readFile(posix.join(base.directory, base.fileName), { signal: context.signal });
    if (worker) return bytes.indexOf(0) === -1 ? await matchOnWorker(worker, [{ relative: base.fileName, bytes }]) : [];
    const hit = searchBytes(base.fileName, bytes, regex, input.multiline);
    return hit ? [hit] : [];
  }
  if (candidates) return searchCandidates(search, candidates.filter(filter), found);
  const walked = await walkedCandidates(search, filter, () => {
    progress.counts.filesScanned += 1;
    progress.changed();
  });
  return searchCandidates(search, walked, found);
}

/** What the bundle gives a workspace Grep. */
export interface WorkspaceGrepOptions {
  readonly environment: FsToolEnvironment;
  readonly progressIntervalMs: number | undefined;
  /** The bundle's Grep worker threads (patterns that may backtrack are matched there). */
  readonly workers: GrepWorkerHost;
  /** The regex time budget of one call (see `FsToolBundleOptions.regexTimeBudgetMs`). */
  readonly regexTimeBudgetMs: number | undefined;
}

/**
 * Grep in the workspace; undefined when the path is one of the host's own
 * folders (the local Grep serves it).
 */
export async function grepInWorkspace(workspace: Workspace, input: GrepInput, context: ToolContext, options: WorkspaceGrepOptions) {
  const base = await resolveWorkspaceSearchBase({ toolName: "Grep", intent: "search", context, workspace }, input.path);
  if (!base) return undefined;
  const { filter, prefilter } = fileFilter(input.file_pattern);
  const searchContext = input.output_mode === "content" ? input.context : 0;
  const useRipgrep = base.fileName === undefined && workspace.capabilities.ripgrep && workspace.processes !== undefined;
  const progress = grepProgress(options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, !useRipgrep, (update) => context.onUpdate(update));
  const found = (hit: GrepFileHits) => {
    progress.counts.matchCount += hit.matchCount;
    progress.counts.fileCount += 1;
    progress.changed();
  };
  let engine: "ripgrep" | "typescript" = useRipgrep ? "ripgrep" : "typescript";
  let hits: GrepFileHits[] | undefined;
  try {
    if (useRipgrep && workspace.capabilities.anchoredOpens) {
      try {
        // ripgrep only names the files; what is shown comes from anchored reads (a swapped folder is refused there).
        const candidates = await ripgrepCandidateFiles(base.directory, {
          pattern: input.pattern,
          ignoreCase: input.ignore_case,
          multiline: input.multiline,
          context: 0,
          prefilterGlobs: prefilter,
          excludeDirectories: [...base.excluded],
          signal: context.signal,
          runner: workspaceProgramRunner(workspace.processes!),
        });
        hits = await grepByReading({ workspace, base, context, candidates }, input, options, { filter, found, progress });
      } catch (error) {
        if (!(error instanceof RipgrepNotStartedError)) throw error;
        engine = "typescript"; // no rg there after all: the walk below
        progress.newPass();
      }
    } else if (useRipgrep) {
      try {
        hits = await grepWithRipgrepPaged(
          {
            rgPath: "rg",
            directory: base.directory,
            query: {
              pattern: input.pattern,
              ignoreCase: input.ignore_case,
              multiline: input.multiline,
              context: searchContext,
              prefilterGlobs: prefilter,
              excludeDirectories: [...base.excluded],
              signal: context.signal,
              runner: workspaceProgramRunner(workspace.processes!),
            },
            filter: input.file_pattern ? judgedOnce(filter) : filter,
          },
          { outputMode: input.output_mode, offset: input.offset, headLimit: input.head_limit, maxChars: context.maxOutputChars },
          {
            progress: {
              newPass: () => progress.newPass(),
              file: (matchCount) => {
                progress.counts.matchCount += matchCount;
                progress.counts.fileCount += 1;
                progress.changed();
              },
            },
          },
        );
      } catch (error) {
        if (!(error instanceof RipgrepNotStartedError)) throw error;
        engine = "typescript"; // no rg there after all: the walk below
        progress.newPass();
      }
    }
    if (!hits) hits = await grepByReading({ workspace, base, context }, input, options, { filter, found, progress });
  } catch (error) {
    throw await workspaceToolError({ toolName: "Grep", workspace, context }, error, base.resolved);
  } finally {
    progress.stop();
  }
  return grepAnswer(hits, {
    input,
    base,
    context: searchContext,
    engine,
    maxChars: context.maxOutputChars,
    caches: options.environment.searchCaches,
  });
}
