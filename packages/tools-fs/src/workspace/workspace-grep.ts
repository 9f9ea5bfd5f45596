/**
 * Grep on a workspace that is not the local disk. The candidate files come
 * from ripgrep run in the workspace (`rg --files-with-matches` through its
 * processes, when `capabilities.ripgrep`) or from the ignore-aware walk
 * through its file system; each candidate is read through the file system
 * and matched by the pure TypeScript matcher, and the answer is rendered by
 * the local Grep's renderer, so the text is the local one.
 */
import { posix } from "node:path";
import type { ToolContext } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import { compileGrepPattern, searchBytes } from "../search/grep-engine.js";
import { fileFilter } from "../search/grep-file-filter.js";
import { DEFAULT_REGEX_TIME_BUDGET_MS, cannotBacktrack } from "../search/grep-regex-budget.js";
import type { GrepWorkerHost } from "../search/grep-worker-host.js";
import { renderGrep } from "../search/grep-format.js";
import type { GrepFileHits } from "../search/grep-result.js";
import { RIPGREP_WALK_FLAGS } from "../search/ripgrep.js";
import type { SearchBase } from "../search/search-base.js";
import { DEFAULT_PROGRESS_INTERVAL_MS, grepProgress } from "../search/search-progress.js";
import type { FsToolEnvironment } from "../shared/tool-environment.js";
import { workspaceToolError } from "./workspace-errors.js";
import { type ReadCandidate, type WorkerMatch, matchOnWorker } from "./workspace-grep-worker.js";
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

/** ripgrep's arguments listing the files with a match below "." (the walk and ignore rules of the local Grep). */
function ripgrepListArguments(input: GrepInput, prefilter: string[] | undefined, excluded: ReadonlySet<string>): string[] {
  const args = ["--files-with-matches", "--null", "--color", "never", "--crlf", ...RIPGREP_WALK_FLAGS];
  args.push(input.ignore_case ? "--ignore-case" : "--case-sensitive");
  if (input.multiline) args.push("--multiline", "--multiline-dotall");
  for (const glob of prefilter ?? []) args.push("--type-add", `agentprefilter:${glob}`);
  if (prefilter?.length) args.push("--type", "agentprefilter");
  for (const directory of excluded) args.push("--glob", `!/${directory.replace(/[\\*?[\]{}!]/g, "\\$&")}`);
  args.push("--regexp", input.pattern, "--", ".");
  return args;
}

/**
 * The files below the base with a match, as ripgrep run in the workspace
 * lists them (relative, `/`-separated); undefined when `rg` could not be
 * started there (the walk then lists the candidates).
 */
async function ripgrepCandidates(search: GrepSearch, prefilter: string[] | undefined): Promise<string[] | undefined> {
  const { workspace, base, input, context } = search;
  const runner = workspace.processes!;
  const child = runner.spawn({ command: "rg", args: ripgrepListArguments(input, prefilter, base.excluded), cwd: base.directory, signal: context.signal });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.onOutput((chunk) => (chunk.stream === "stdout" ? stdout : stderr).push(chunk.data));
  const exit = await child.exited;
  await child.outputClosed;
  if (context.signal.aborted) throw context.signal.reason ?? new Error("aborted");
  if (exit.error !== undefined && exit.exitCode === null && stdout.length === 0) return undefined; // not started (no rg after all)
  // 0: matches, 1: none, 2: an error (an unreadable file: what it found still counts, as locally).
  if (exit.exitCode !== 0 && exit.exitCode !== 1 && stdout.length === 0) {
    const message = Buffer.concat(stderr).toString("utf8").trim() || exit.error || `exit ${exit.exitCode ?? exit.signal}`;
    throw new Error(`ripgrep failed in the workspace: ${message.slice(0, 500)}`);
  }
  return Buffer.concat(stdout)
    .toString("utf8")
    .split("\0")
    .filter((name) => name !== "")
    .map((name) => (name.startsWith("./") ? name.slice(2) : name));
}

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
  const useRipgrep = base.fileName === undefined && workspace.capabilities.ripgrep && workspace.processes !== undefined;
  const progress = grepProgress(options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS, !useRipgrep, (update) => context.onUpdate(update));
  const found = (hit: GrepFileHits) => {
    progress.counts.matchCount += hit.matchCount;
    progress.counts.fileCount += 1;
    progress.changed();
  };
  let engine: "ripgrep" | "typescript" = useRipgrep ? "ripgrep" : "typescript";
  let hits: GrepFileHits[];
  try {
    let candidates: string[];
    if (base.fileName !== undefined) {
      // A named file is read here, so an unreadable file is reported, not skipped.
      const bytes = await workspace.fs.readFile(posix.join(base.directory, base.fileName), { signal: context.signal });
      if (worker) hits = bytes.indexOf(0) === -1 ? await matchOnWorker(worker, [{ relative: base.fileName, bytes }]) : [];
      else {
        const hit = searchBytes(base.fileName, bytes, regex, input.multiline);
        hits = hit ? [hit] : [];
      }
    } else {
      const listed = useRipgrep ? await ripgrepCandidates(search, prefilter) : undefined;
      if (listed) candidates = listed.filter(filter);
      else {
        engine = "typescript";
        candidates = await walkedCandidates(search, filter, () => {
          progress.counts.filesScanned += 1;
          progress.changed();
        });
      }
      hits = await searchCandidates(search, candidates, found);
    }
  } catch (error) {
    throw await workspaceToolError({ toolName: "Grep", workspace, context }, error, base.resolved);
  } finally {
    progress.stop();
  }
  const rendered = renderGrep(
    hits,
    {
      outputMode: input.output_mode,
      offset: input.offset,
      headLimit: input.head_limit,
      context: input.output_mode === "content" ? input.context : 0,
      displayDirectory: base.displayDirectory,
      pattern: input.pattern,
      maxChars: context.maxOutputChars,
    },
    options.environment.searchCaches,
  );
  return {
    content: rendered.text,
    details: {
      kind: "grep" as const,
      pattern: input.pattern,
      path: base.fileName !== undefined ? base.resolved.displayPath : base.displayDirectory,
      outputMode: input.output_mode,
      matchCount: rendered.matchCount,
      fileCount: rendered.fileCount,
      returned: rendered.returned,
      offset: input.offset,
      hasMore: rendered.hasMore,
      engine,
    },
  };
}
