import { comparePaths } from "./file-walker.js";
import { CountedFileHits, LimitedFileHits } from "./grep-counted-hits.js";
import type { GrepFileHits, GrepOutputMode } from "./grep-result.js";
import { type GrepQuery, grepWithRipgrep, ripgrepArguments, runChecked, runParsed } from "./grep-ripgrep.js";
import { RIPGREP_BATCH_CONCURRENCY, RIPGREP_FILE_ARGUMENT_BYTES, batchFileArguments, runBatches } from "./grep-ripgrep-batches.js";
import { firstLinesInProcess, plainLiteral } from "./grep-ripgrep-first-lines.js";
import { PagePathHits, type PinnedPageFiles, pinPageFiles } from "./grep-page-files.js";
import { MIN_LINE_CHARS_BESIDES_PATH } from "./grep-ripgrep-retention.js";
import { RipgrepCountParser, type RipgrepFileCounted, RipgrepLineNumberParser } from "./ripgrep-count-parsers.js";

/** The page Grep will render, so ripgrep need print only the files on it. */
export interface GrepPage {
  outputMode: GrepOutputMode;
  offset: number;
  headLimit: number;
  /**
   * Characters the rendered answer may carry (see `GrepFormatOptions.maxChars`):
   * a content page stops there, so files past what it can reach are not searched for lines.
   */
  maxChars?: number;
}

/**
 * Output caps up to this many characters bound how far a content page
 * reaches (the default cap is 240,000): its run keeps only the files the
 * capped page can reach. (A cap of megabytes is a host asking for
 * everything: a large page then takes the run written to a file.)
 */
const CAPPED_PAGE_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Content pages reaching this many matching lines (offset + head_limit),
 * with no output cap that bounds them, take the run written to a file
 * (see {@link grepWithRipgrepPaged}).
 */
export const SINGLE_PASS_MIN_LINES = 1_000;

/**
 * Output a single pass may print per line the page reaches (per match and
 * context line) before it is stopped for the two passes. ripgrep's records
 * average 150 bytes per line on the benchmark trees.
 */
const SINGLE_PASS_BYTES_PER_LINE = 256;

/**
 * Bytes of ripgrep's records a bounded content page's run keeps at most of
 * the files the page can reach (at least what the page needs at 256 bytes
 * per line): the files it cannot reach are only counted whatever this is;
 * past it reachable files are only counted too and searched again. Bounds
 * the memory a run printing gigabytes holds.
 */
const RETAIN_MIN_BYTES = 4 * 1024 * 1024;

/**
 * Most bytes of records a bounded content page's run keeps (a page deep in
 * a large result under the cap, with context: the files before its offset
 * keep their lines too, since files printed later may push them onto it).
 * Past it the page's last files are searched again.
 */
const RETAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Output past which a small content page's run is stopped for the two
 * passes after all: far above real results (the 60,000-file benchmark
 * tree's most common word prints about 50 MB), it bounds what a pattern
 * matching nearly every line of a huge tree costs (printing runs about a
 * fifth slower than `--count`).
 */
const RUN_ON_MAX_BYTES = 256 * 1024 * 1024;

/** What {@link grepWithRipgrepPaged} searches: with which ripgrep, under which folder, for what, keeping which files. */
export interface PagedGrepSearch {
  rgPath: string;
  /** ripgrep's working directory: the folder searched. */
  directory: string;
  query: GrepQuery;
  /** Whether a file with hits (path relative to `directory`, with `/`) is part of the result. */
  filter: (relative: string) => boolean;
}

/** Tuning of {@link grepWithRipgrepPaged} (tests make the limits small). */
export interface GrepPagedOptions {
  /** Argument bytes of the files of one page run; default {@link RIPGREP_FILE_ARGUMENT_BYTES}. */
  fileArgumentBytes?: number;
  /** Default {@link SINGLE_PASS_MIN_LINES}. */
  singlePassMinLines?: number;
  /** Output bytes a single pass may print per page line; default 256. */
  singlePassBytesPerLine?: number;
  /** Output bytes of a files page's line-number run before it is stopped; default {@link LINE_NUMBERS_MAX_BYTES}. */
  lineNumbersMaxBytes?: number;
  /** Bytes of records a bounded content page's run keeps of the files the page can reach; default {@link RETAIN_MIN_BYTES} or what the page needs at 256 bytes per line. */
  retainBytes?: number;
  /** Output of a bounded content page's run before it is stopped for the two passes; default {@link RUN_ON_MAX_BYTES}. */
  runOnMaxBytes?: number;
  /** Hears the files of the runs over the whole tree as ripgrep prints them (Grep's progress). */
  progress?: GrepRunProgress;
}

/** What a paged search tells of its runs over the whole tree while they print. */
export interface GrepRunProgress {
  /** A run over the whole tree starts: its files are counted from zero again. */
  newPass(): void;
  /** A file the filter keeps, with its matching lines. */
  file(matchCount: number): void;
}

/** A file of a paged search: its matching lines and, when a run kept them, its hits. */
interface CountedFile {
  path: string;
  count: number;
  hits?: GrepFileHits;
}

/**
 * Output a files-mode pass of line numbers may print before it is stopped
 * for the two passes: far above any real tree's (a common literal on the
 * 60,000-file bench tree prints about 4 MB), far below a pattern matching
 * at every position of a large tree (hundreds of MB).
 */
const LINE_NUMBERS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A files-mode query in one ripgrep run: every match printed as its line
 * number only (`--only-matching --replace ''`), which gives each file's
 * matching lines and first matching line, all a files page shows. Null
 * when the run printed more than {@link LINE_NUMBERS_MAX_BYTES}.
 */
async function filesWithFirstLines(
  search: Pick<PagedGrepSearch, "rgPath" | "directory" | "query">,
  maxBytes: number,
  onFile: RipgrepFileCounted | undefined,
): Promise<CountedFileHits[] | null> {
  const { rgPath, directory, query } = search;
  const args = withoutLineOutputFlags(ripgrepArguments(query), query);
  args.unshift("--heading", "--line-number", "--only-matching", "--replace", "");
  const parser = new RipgrepLineNumberParser(onFile);
  const output = await runChecked(
    { rgPath, directory, args, signal: query.signal, runner: query.runner },
    { maxStdoutBytes: maxBytes, onStdout: (chunk) => parser.push(chunk) },
  );
  return output ? parser.end() : null;
}

/** Files of one pinned ripgrep run at most (each holds a descriptor while it runs; two runs at a time). */
const PINNED_FILES_PER_RUN = 256;

/** `paths` in groups of at most {@link PINNED_FILES_PER_RUN}. */
function pinGroups(paths: string[]): string[][] {
  const groups: string[][] = [];
  for (let start = 0; start < paths.length; start += PINNED_FILES_PER_RUN) groups.push(paths.slice(start, start + PINNED_FILES_PER_RUN));
  return groups;
}

/** Page files given to ripgrep by name (`./<path>`; ripgrep prints them back without the `./`). */
function unpinned(paths: readonly string[]): PinnedPageFiles {
  return { args: paths.map((file) => `./${file}`), pageOf: (printed) => printed, close: () => undefined };
}

/** `ripgrepArguments` without line numbers, context and long-line previews (a counting run prints no lines). */
function withoutLineOutputFlags(args: string[], query: GrepQuery): string[] {
  const kept = args.filter((arg) => arg !== "--heading" && arg !== "--line-number" && arg !== "--max-columns-preview");
  kept.splice(kept.indexOf("--max-columns"), 2);
  kept.splice(kept.indexOf("--context"), query.context > 0 ? 2 : 0);
  return kept;
}

/**
 * Runs a query so that ripgrep prints little more than the page needs, in
 * one ripgrep run for every page shape where one run suffices. Same hits
 * as {@link grepWithRipgrep} for everything the formatter reads;
 * multi-line queries (where counts are of matches, not lines) take that
 * single pass.
 *
 * - A bounded content page (fewer than {@link SINGLE_PASS_MIN_LINES} lines,
 *   the default page being 200, or any page under an output cap of at most
 *   4 MiB characters, which ends it early) takes one run that prints every
 *   line. Only the files the page can reach keep their lines
 *   (`pageRetention`: in path order, up to its last line or what the
 *   cap allows); the others are only counted while ripgrep runs on. The
 *   page's files are searched again only if their records passed 4 MiB
 *   (or what the page needs, at most 64 MiB), and the run is stopped for the two passes
 *   below only past 256 MiB of output (a pattern matching nearly every
 *   line of a huge tree).
 * - A content page of {@link SINGLE_PASS_MIN_LINES} lines or more with no
 *   cap that bounds it (a host asking for everything) tries one run written
 *   to a temporary file (not a pipe), stopped once its output exceeds what
 *   such a page needs (256 bytes per line): rendering all of a search's
 *   lines then costs one ripgrep run.
 * - A files page of a plain literal ({@link plainLiteral}) takes one
 *   `--count` run (tiny output, near `rg -l`'s cost); the first matching
 *   line of each of its files is then found in those files only
 *   ({@link firstLinesInProcess}). A files page of any other pattern takes
 *   one run that prints only line numbers ({@link filesWithFirstLines}):
 *   for a regex, finding each match costs little more than finding its
 *   line, and a second process start would cost more.
 * - Otherwise (a count, a stopped run): `--count` gives every file's
 *   matching lines, then only the files holding the page are searched
 *   again (on one thread when they are few; `--max-count 1` for a files
 *   page).
 *
 * Files searched again are passed to ripgrep as arguments, in batches of
 * at most 256 KiB of arguments ({@link batchFileArguments}, two runs at a
 * time): any page size works, far below the kernel's ARG_MAX.
 *
 * Why one run that counts what the page cannot reach, not one that is
 * stopped: the size of a result is only known once it is printed, and a
 * run stopped when its output grows costs a process start plus the work so
 * far, a cliff wherever a result's size sits at the limit (measured: the
 * 60,000-file tree's common literal 1.36x rg when stopped past 16 MiB, its
 * regex 2.12x past 8 MiB). Running on costs the printing of a large result,
 * which `rg` itself does too.
 */
export async function grepWithRipgrepPaged(search: PagedGrepSearch, page: GrepPage, options: GrepPagedOptions = {}): Promise<GrepFileHits[]> {
  const { rgPath, directory, query, filter } = search;
  const { progress } = options;
  const counter: RipgrepFileCounted | undefined =
    progress &&
    ((path, matchCount) => {
      if (matchCount > 0 && filter(path)) progress.file(matchCount);
    });
  // Each run over the whole tree counts from zero (a run stopped early is followed by another one).
  const wholeTreeRun = () => {
    progress?.newPass();
    return counter;
  };
  if (query.multiline) return (await grepWithRipgrep(rgPath, directory, query, wholeTreeRun())).filter((file) => filter(file.path));
  const pageLines = page.offset + page.headLimit;
  // A small output cap bounds how far a content page reaches, whatever head_limit says.
  const maxChars = page.maxChars !== undefined && page.maxChars <= CAPPED_PAGE_MAX_CHARS ? page.maxChars : undefined;
  let counted: CountedFile[] | undefined;
  if (page.outputMode === "content") {
    // What the page needs of ripgrep's output, at 256 bytes per line (context lines included).
    const bytesPerLine = (2 * query.context + 1) * (options.singlePassBytesPerLine ?? SINGLE_PASS_BYTES_PER_LINE);
    const parseEagerly = query.context > 0;
    if (pageLines >= (options.singlePassMinLines ?? SINGLE_PASS_MIN_LINES) && maxChars === undefined) {
      // Its output is megabytes when it is not stopped: ripgrep writes it to a file, not waiting on a pipe.
      const run = await runParsed(
        { rgPath, directory, args: ripgrepArguments(query), signal: query.signal, runner: query.runner },
        { parseEagerly, maxStdoutBytes: pageLines * bytesPerLine, outputFile: true, onFile: wholeTreeRun() },
      );
      if (run) return run.files.filter((file) => filter(file.path));
    } else {
      // One run prints every line; only the files the page can reach keep them (no run stopped and started again),
      // unless it prints more than RUN_ON_MAX_BYTES (a pattern matching nearly every line of a huge tree): then counting is cheaper.
      const reachLines = maxChars === undefined ? pageLines : Math.min(pageLines, page.offset + Math.ceil(maxChars / MIN_LINE_CHARS_BESIDES_PATH));
      const retainBytes = options.retainBytes ?? Math.min(RETAIN_MAX_BYTES, Math.max(RETAIN_MIN_BYTES, reachLines * bytesPerLine));
      const run = await runParsed(
        { rgPath, directory, args: ripgrepArguments(query), signal: query.signal, runner: query.runner },
        {
          parseEagerly,
          reach: { offset: page.offset, headLimit: page.headLimit, maxChars, retainBytes },
          maxStdoutBytes: options.runOnMaxBytes ?? RUN_ON_MAX_BYTES,
          onFile: wholeTreeRun(),
        },
      );
      // Only the files kept or counted by the filter: a file the filter drops takes no room on the page.
      if (run?.complete) return run.files.filter((file) => filter(file.path));
      counted = run?.files
        .filter((file) => file.matchCount > 0 && filter(file.path))
        .map((file) => ({ path: file.path, count: file.matchCount, hits: file instanceof CountedFileHits ? undefined : file }));
    }
  }
  if (page.outputMode === "files" && (query.runner || plainLiteral(query.pattern) === undefined)) {
    // One run gives what a files page shows; a second process start costs about as much as searching a small tree.
    const files = await filesWithFirstLines(search, options.lineNumbersMaxBytes ?? LINE_NUMBERS_MAX_BYTES, wholeTreeRun());
    if (files) return files.filter((file) => filter(file.path));
  }
  if (!counted) {
    const countArgs = withoutLineOutputFlags(ripgrepArguments(query), query);
    countArgs.unshift("--count");
    const parser = new RipgrepCountParser(wholeTreeRun());
    await runChecked({ rgPath, directory, args: countArgs, signal: query.signal, runner: query.runner }, { onStdout: (chunk) => parser.push(chunk) });
    counted = parser.end().filter((file) => file.count > 0 && filter(file.path));
  }
  counted.sort((a, b) => comparePaths(a.path, b.path));
  if (page.outputMode === "count") return counted.map((file) => new CountedFileHits(file.path, file.count));
  const onPage = new Set<number>();
  if (page.outputMode === "files") {
    for (let index = page.offset; index < Math.min(counted.length, pageLines); index += 1) onPage.add(index);
    const firstLines = await firstLinesInProcess(
      directory,
      query,
      [...onPage].map((index) => counted[index]!),
    );
    for (const index of onPage) {
      const file = counted[index]!;
      const line = firstLines.lines.get(file.path);
      // A file refused there changed since the count (a symlink, FIFO or device swapped in, gone): counted, no line.
      if (line === undefined && !firstLines.refused.has(file.path)) continue;
      file.hits = new CountedFileHits(file.path, file.count, line);
      onPage.delete(index);
    }
  } else {
    let matchIndex = 0;
    let leastChars = 0; // a lower bound of the page's rendered characters so far
    const reach = maxChars ?? Number.POSITIVE_INFINITY;
    for (let index = 0; index < counted.length && matchIndex < pageLines && leastChars <= reach; index += 1) {
      const file = counted[index]!;
      if (matchIndex + file.count > page.offset) {
        onPage.add(index);
        const shown = Math.min(file.count, matchIndex + file.count - page.offset);
        leastChars += shown * (file.path.length + MIN_LINE_CHARS_BESIDES_PATH);
      }
      matchIndex += file.count;
    }
  }
  // Files whose lines the first run kept need no second one.
  for (const index of onPage) if (counted[index]!.hits) onPage.delete(index);
  // A path that is not valid UTF-8 cannot be passed back: take the single pass.
  if ([...onPage].some((index) => counted[index]!.path.includes("\uFFFD"))) {
    return (await grepWithRipgrep(rgPath, directory, query, wholeTreeRun())).filter((file) => filter(file.path));
  }
  const pageHits = new Map<string, GrepFileHits>();
  const pinned = !query.runner;
  const batches = (pinned ? pinGroups([...onPage].map((index) => counted[index]!.path)) : [[...onPage].map((index) => counted[index]!.path)]).flatMap((group) =>
    batchFileArguments(group, options.fileArgumentBytes ?? RIPGREP_FILE_ARGUMENT_BYTES),
  );
  const outputs = await runBatches(batches, RIPGREP_BATCH_CONCURRENCY, query.signal, async (paths, signal) => {
    // The page's files are opened here first: ripgrep gets the opened files, not names it would follow (see pinPageFiles).
    const files = pinned ? pinPageFiles(directory, paths) : unpinned(paths);
    try {
      if (files.args.length === 0) return [];
      const args = ripgrepArguments(query);
      args.splice(args.length - 1, 1, ...files.args);
      args.unshift("--with-filename"); // one explicit file would print no name
      // A few files search fastest on one thread: no thread pool to start (21 -> 14 ms for 4 files).
      if (files.args.length <= 8) args.unshift("--threads", "1");
      if (page.outputMode === "files") args.unshift("--max-count", "1");
      const found = (await runParsed({ rgPath, directory, args, signal, runner: query.runner }, { parseEagerly: query.context > 0 }))!.files;
      if (!pinned) return found;
      return found.flatMap((hits) => {
        const pagePath = files.pageOf(hits.path);
        return pagePath === undefined ? [] : [new PagePathHits(pagePath, hits)];
      });
    } finally {
      files.close();
    }
  });
  for (const files of outputs) for (const file of files) pageHits.set(file.path, file);
  return counted.map((file, index) => {
    if (file.hits) return file.hits;
    const hits = onPage.has(index) ? pageHits.get(file.path) : undefined;
    return hits ? new LimitedFileHits(hits, file.count) : new CountedFileHits(file.path, file.count);
  });
}
