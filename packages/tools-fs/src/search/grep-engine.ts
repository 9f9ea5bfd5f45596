import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { ToolError } from "@agent-tools/core";
import { walkTree } from "./file-walker.js";
import { FileBytesHits, FileBytesLoader, TextFileHits } from "./grep-file-hits.js";
import type { GrepFileHits } from "./grep-result.js";
import type { GrepQuery } from "./grep-ripgrep.js";
import { type LiteralFinder, createFileReader, decodeText, matchingLines, searchFileBytes, searchFinder } from "./grep-line-scan.js";
import { DEFAULT_REGEX_TIME_BUDGET_MS, cannotBacktrack, patternTooExpensiveError } from "./grep-regex-budget.js";
import { GrepScanKernel } from "./grep-scan-kernel.js";
import { GrepWorkerHost } from "./grep-worker-host.js";
import { type GrepWorkerPool, startGrepWorkers } from "./grep-workers.js";
import type { SearchCaches } from "./search-caches.js";

/** Thrown out of the walk when the workers' search has already ended. */
const WALK_STOPPED = Object.freeze({ reason: "the worker search ended" });

/** Files searched between two yields to the event loop (abort checks). */
const FILES_PER_SLICE = 64;

/**
 * Compiles a Grep pattern (Rust regex syntax) into a JavaScript RegExp with
 * the same meaning for the common subset; refuses what ripgrep refuses
 * (look-around, backreferences, a literal newline without multiline).
 */
export function compileGrepPattern(pattern: string, ignoreCase: boolean, multiline: boolean): RegExp {
  let source = pattern;
  let flags = "gm";
  if (ignoreCase) flags += "i";
  if (multiline) flags += "s";
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes("i") && !flags.includes("i")) flags += "i";
    if (inline[1]!.includes("s") && !flags.includes("s")) flags += "s";
  }
  if (/\(\?<?[=!]/.test(source) || /\\[1-9]|\\k</.test(source)) {
    throw new ToolError(
      "regex_invalid",
      `Grep pattern "${pattern}" uses look-around or backreferences, which Grep's regex syntax (Rust regex) does not support. Rewrite it without them, or search a simpler pattern and filter the results.`,
    );
  }
  if (!multiline && (/(^|[^\\])\\n/.test(source) || source.includes("\n"))) {
    throw new ToolError(
      "regex_invalid",
      `Grep pattern "${pattern}" contains a line break (\\n), which only matches with multiline=true. Set multiline=true to match across lines.`,
    );
  }
  source = source.replace(/\(\?P</g, "(?<");
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new ToolError(
        "regex_invalid",
        `Grep pattern "${pattern}" is not a valid regular expression: ${(error as Error).message}. Escape special characters (e.g. \\( \\[ \\.) for a literal search.`,
      );
    }
  }
}

/** The hits of one file whose matching lines were found elsewhere (on a worker), over the bytes read here. */
export function hitsOfBytes(relativePath: string, bytes: Buffer, lines: readonly number[]): GrepFileHits {
  return new TextFileHits(relativePath, [...lines], decodeText(bytes));
}

/** Searches one file's bytes; null for binary files (a NUL byte anywhere). */
export function searchBytes(relativePath: string, bytes: Buffer, regex: RegExp, multiline: boolean): GrepFileHits | null {
  if (bytes.indexOf(0) !== -1) return null;
  const text = decodeText(bytes);
  const lines = matchingLines(text, regex, multiline);
  return lines.length ? new TextFileHits(relativePath, lines, text) : null;
}

/**
 * Candidate files above which the search starts worker threads when the
 * bundle has none idle: their start-up and cold JIT cost about 100 ms
 * (measured on 2 busy cores, fresh workers lose at 8k files and win from
 * about 12k: 1.4x at 32k, 2x at 112k). See {@link GREP_WARM_WORKER_THRESHOLD}.
 */
export const GREP_WORKER_THRESHOLD = 10_000;

/**
 * Candidate files above which the search runs on the bundle's worker
 * threads when some are idle and started already (left by an earlier
 * search, or started after one that searched more than this many files on
 * the main thread; idle for at most `GREP_WORKER_IDLE_MS`): with no
 * start-up to pay, two threads reading and matching beat the main thread
 * alone from a few hundred files (on 2 cores; the walk stays on the main
 * thread).
 */
export const GREP_WARM_WORKER_THRESHOLD = 500;

/** The candidate count above which a search goes to `workers`: see {@link GREP_WARM_WORKER_THRESHOLD}. */
function workerThreshold(workers: GrepWorkerHost): number {
  return workers.readyIdle > 0 ? GREP_WARM_WORKER_THRESHOLD : GREP_WORKER_THRESHOLD;
}

/** Tuning of {@link grepWithTypeScript}. */
export interface GrepEngineOptions {
  /**
   * Search on worker threads when more candidates than this; default
   * {@link GREP_WORKER_THRESHOLD}. Patterns that may backtrack are always
   * matched on worker threads, whatever the count.
   */
  workerThreshold?: number;
  /** The bundle's worker threads; default a host of this call only (its threads exit with it). */
  workers?: GrepWorkerHost;
  /** The bundle's search caches (the walk's ignore rules); default fresh ones for this call. */
  caches?: SearchCaches;
  /**
   * Wall-clock time the worker-thread search of a pattern that may
   * backtrack may take before it is stopped with a "pattern too expensive"
   * error; default {@link DEFAULT_REGEX_TIME_BUDGET_MS}.
   */
  regexTimeBudgetMs?: number;
  /** Hears of the files the walk hands to the search and of the hits found on the main thread (Grep's progress). */
  progress?: GrepScanProgress;
  /** When given, these files (relative to the directory) are searched instead of walking. */
  files?: string[];
  /** The topmost folder whose ignore files the walk reads (see `WalkOptions.ignoreBoundary`); default every ancestor. */
  ignoreBoundary?: string;
}

/** One search of the TypeScript engine: where, what, and which files. */
interface CandidateSearch {
  directory: string;
  query: GrepQuery;
  regex: RegExp;
  filter: (relativePath: string) => boolean;
  files: string[] | undefined;
}

/** How each file of one search is read and matched. */
interface FileScan {
  directory: string;
  regex: RegExp;
  multiline: boolean;
  finder: LiteralFinder | undefined;
  /** Returns a view of a reused buffer; null for a binary file. */
  read: (file: string) => Buffer | null;
  /** Reads the files of the hits again when their lines are shown. */
  loader: FileBytesLoader;
}

/** What the TypeScript engine tells while it runs. */
export interface GrepScanProgress {
  /** The walk found one more file to search (one the filter keeps). */
  scanned(): void;
  /** A file with this many matching lines was found. */
  file(matchCount: number): void;
}

/**
 * The pure TypeScript Grep engine: the ignore-aware walker, then one
 * JavaScript regex pass over each file. A pattern that cannot backtrack
 * ({@link cannotBacktrack}: literals and the like) is matched in-process
 * for small file sets, and on two worker threads (with the main thread
 * helping) above `workerThreshold` candidates. Any other pattern is matched
 * only on worker threads, which are terminated on abort and when the regex
 * time budget runs out, so a catastrophic regex never blocks the event
 * loop. A worker reports only line numbers: a hit's file is read again,
 * as bytes, when its lines are shown ({@link FileBytesHits}).
 */
export async function grepWithTypeScript(
  directory: string,
  query: GrepQuery,
  filter: (relativePath: string) => boolean,
  options: GrepEngineOptions = {},
): Promise<GrepFileHits[]> {
  const regex = compileGrepPattern(query.pattern, query.ignoreCase, query.multiline);
  const host = options.workers ?? new GrepWorkerHost();
  try {
    // The bundle's threads are started for its next searches after a large one here (see `prestartWorkers`).
    const prestartWorkers = options.workers !== undefined && options.workerThreshold === undefined;
    return await searchCandidates({ directory, query, regex, filter, files: options.files }, { ...options, workers: host, prestartWorkers });
  } finally {
    if (!options.workers) await host.close();
  }
}

/**
 * `prestartWorkers`: after searching more than {@link GREP_WARM_WORKER_THRESHOLD}
 * files on the main thread, start the host's threads for the next search
 * (an agent greps the same tree again and again).
 */
async function searchCandidates(
  search: CandidateSearch,
  options: GrepEngineOptions & { workers: GrepWorkerHost; prestartWorkers?: boolean },
): Promise<GrepFileHits[]> {
  const { directory, query, regex, filter, files } = search;
  const inProcess = cannotBacktrack(query.pattern);
  // A pattern that may backtrack goes to the workers from the first file.
  const threshold = inProcess ? (options.workerThreshold ?? workerThreshold(options.workers)) : -1;
  const budgetMs = options.regexTimeBudgetMs ?? DEFAULT_REGEX_TIME_BUDGET_MS;
  const candidates: string[] = [];
  let pool: GrepWorkerPool | undefined;
  // Past the threshold the workers start and search while the walk goes on.
  const progress = options.progress;
  const take = (relative: string) => {
    if (!filter(relative)) return;
    progress?.scanned();
    if (pool?.stopped) throw WALK_STOPPED; // e.g. out of time: `finish()` gives the reason
    if (pool) return pool.add(relative);
    candidates.push(relative);
    if (candidates.length > threshold) {
      pool = startGrepWorkers(
        directory,
        { source: regex.source, flags: regex.flags, multiline: query.multiline, pattern: query.pattern, ignoreCase: query.ignoreCase },
        {
          host: options.workers,
          signal: query.signal,
          timeBudget: inProcess ? undefined : { ms: budgetMs, error: () => patternTooExpensiveError(query.pattern, budgetMs) },
          onBatchHits:
            progress &&
            ((hits) => {
              for (const hit of hits) if (hit.lines.length > 0) progress.file(hit.lines.length);
            }),
        },
      );
      for (const candidate of candidates) pool.add(candidate);
    }
  };
  try {
    if (files) for (const relative of files) take(relative);
    else {
      const exclude = new Set(query.excludeDirectories ?? []);
      await walkTree(directory, {
        signal: query.signal,
        onFile: take,
        collect: false,
        caches: options.caches,
        exclude,
        ignoreBoundary: options.ignoreBoundary,
      });
    }
  } catch (error) {
    if (error !== WALK_STOPPED) {
      await pool?.cancel(error);
      throw error;
    }
  }
  const kernel = GrepScanKernel.create();
  const finder = searchFinder(query.pattern, query.ignoreCase, kernel);
  const read = createFileReader({ openSync, readSync, closeSync }, kernel);
  const loader = new FileBytesLoader(kernel);
  const scan: FileScan = { directory, regex, multiline: query.multiline, finder, read, loader };
  if (pool) {
    // The main thread searches the batches no worker has taken yet (while
    // the workers start, or when all are busy), when the pattern cannot backtrack.
    const local: GrepFileHits[] = [];
    try {
      for (let batch = inProcess ? pool.takeBatch() : undefined; batch; batch = pool.takeBatch()) {
        for (const relative of batch) {
          const found = searchFile(relative, scan);
          if (found) {
            local.push(found);
            progress?.file(found.matchCount);
          }
        }
        await new Promise((resolve) => setImmediate(resolve));
        if (query.signal?.aborted) throw query.signal.reason ?? new Error("aborted");
      }
    } catch (error) {
      await pool.cancel(error);
      throw error;
    }
    const found = await pool.finish();
    return local.concat(found.map(({ path: relative, lines }) => new FileBytesHits(relative, lines, directory, loader)));
  }
  const hits: GrepFileHits[] = [];
  // Synchronous reads: for many small, cached files they beat promise round
  // trips through the thread pool; the loop yields regularly for aborts.
  for (let index = 0; index < candidates.length; index += 1) {
    if (index % FILES_PER_SLICE === 0 && index > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (query.signal?.aborted) throw query.signal.reason ?? new Error("aborted");
    }
    const found = searchFile(candidates[index]!, scan);
    if (found) {
      hits.push(found);
      progress?.file(found.matchCount);
    }
  }
  if (options.prestartWorkers && candidates.length > GREP_WARM_WORKER_THRESHOLD) options.workers.prestart();
  return hits;
}

/** Searches one file; `read` returns a view of a reused buffer, so nothing here keeps the bytes. */
function searchFile(relative: string, scan: FileScan): GrepFileHits | null {
  const { directory, regex, multiline, finder, read, loader } = scan;
  let bytes: Buffer | null;
  try {
    bytes = read(path.join(directory, relative));
  } catch {
    return null; // vanished or unreadable: skipped, as ripgrep does
  }
  const lines = searchFileBytes(bytes, regex, multiline, finder);
  return lines?.length ? new FileBytesHits(relative, lines, directory, loader) : null;
}
