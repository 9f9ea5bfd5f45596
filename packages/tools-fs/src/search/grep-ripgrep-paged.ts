import { comparePaths } from "./file-walker.js";
import type { GrepByteRange, GrepFileHits, GrepOutputMode } from "./grep-result.js";
import { type GrepQuery, grepWithRipgrep, readNumber, ripgrepArguments, runChecked, runParsed } from "./grep-ripgrep.js";
import { RIPGREP_BATCH_CONCURRENCY, RIPGREP_FILE_ARGUMENT_BYTES, batchFileArguments, runBatches } from "./grep-ripgrep-batches.js";

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
 * Fewest characters a rendered content line takes besides its path: `:`, a
 * line number, `: ` and the line feed. A page can reach no further than
 * `maxChars` allows at this many characters plus the path per line.
 */
const MIN_LINE_CHARS_BESIDES_PATH = 5;

/** Output caps up to this many characters end a page early enough to count first (the default cap is 240,000). */
const CAPPED_PAGE_MAX_CHARS = 4 * 1024 * 1024;

/**
 * Content pages reaching this many matching lines (offset + head_limit)
 * first try a single pass (see {@link grepWithRipgrepPaged}).
 */
export const SINGLE_PASS_MIN_LINES = 1_000;

/**
 * Output a single pass may print per line the page reaches (per match and
 * context line) before it is stopped for the two passes. ripgrep's records
 * average 150 bytes per line on the benchmark trees.
 */
const SINGLE_PASS_BYTES_PER_LINE = 256;

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
}

/** A file known by its match count and perhaps its first matching line (0 when not known): never rendered in content. */
class CountedFileHits implements GrepFileHits {
  constructor(
    readonly path: string,
    readonly matchCount: number,
    readonly firstMatchLine = 0,
  ) {}
  matchLines(): readonly number[] {
    return [];
  }
  lineText(): undefined {
    return undefined;
  }
}

/** Hits of a page file, cut to the count of the counting run (binary files may differ). */
class LimitedFileHits implements GrepFileHits {
  constructor(
    private readonly inner: GrepFileHits,
    readonly matchCount: number,
  ) {}
  get path(): string {
    return this.inner.path;
  }
  get firstMatchLine(): number {
    return this.inner.firstMatchLine;
  }
  matchLines(): readonly number[] {
    const lines = this.inner.matchLines();
    return lines.length > this.matchCount ? lines.slice(0, this.matchCount) : lines;
  }
  lineText(line: number): string | undefined {
    return this.inner.lineText(line);
  }
  lineBytes(line: number, range: GrepByteRange): boolean {
    return this.inner.lineBytes?.(line, range) ?? false;
  }
}

/** The `path\0` record head at `position` (without a leading `./`) and where its record goes on; undefined at the end. */
function readRecordPath(output: Buffer, position: number): { path: string; next: number } | undefined {
  const nul = output.indexOf(0, position);
  if (nul === -1) return undefined;
  const name = output.toString("utf8", position, nul);
  return { path: name.startsWith("./") ? name.slice(2) : name, next: nul + 1 };
}

/** Parses `--count --null` output: `path\0N` lines. */
function parseCounts(output: Buffer): { path: string; count: number }[] {
  const files: { path: string; count: number }[] = [];
  let position = 0;
  while (position < output.length) {
    const head = readRecordPath(output, position);
    if (head === undefined) break;
    const { value, next } = readNumber(output, head.next);
    files.push({ path: head.path, count: value });
    const newline = output.indexOf(10, next);
    position = newline === -1 ? output.length : newline + 1;
  }
  return files;
}

/**
 * Output a files-mode pass of line numbers may print before it is stopped
 * for the two passes: far above any real tree's (a common literal on the
 * 60,000-file bench tree prints about 4 MB), far below a pattern matching
 * at every position of a large tree (hundreds of MB).
 */
const LINE_NUMBERS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Parses `--heading --null --line-number --only-matching --replace ''`
 * output (`path\0` then a `N:` line per match, a blank line between
 * files) into each file's matching lines and first matching line.
 */
function parseLineNumbers(output: Buffer): CountedFileHits[] {
  const files: CountedFileHits[] = [];
  let position = 0;
  while (position < output.length) {
    const head = readRecordPath(output, position);
    if (head === undefined) break;
    position = head.next;
    let lines = 0;
    let first = 0;
    let previous = -1;
    while (position < output.length && output[position] !== 10) {
      const { value, next } = readNumber(output, position);
      if (value !== previous) {
        if (lines === 0) first = value;
        lines += 1;
        previous = value;
      }
      const newline = output.indexOf(10, next);
      position = newline === -1 ? output.length : newline + 1;
    }
    position += 1; // the blank line between files
    files.push(new CountedFileHits(head.path, lines, first));
  }
  return files;
}

/**
 * A files-mode query in one ripgrep run: every match printed as its line
 * number only (`--only-matching --replace ''`), which gives each file's
 * matching lines and first matching line, all a files page shows. Null
 * when the run printed more than {@link LINE_NUMBERS_MAX_BYTES}.
 */
async function filesWithFirstLines(rgPath: string, directory: string, query: GrepQuery, maxBytes: number): Promise<CountedFileHits[] | null> {
  const args = withoutLineOutputFlags(ripgrepArguments(query), query);
  args.unshift("--heading", "--line-number", "--only-matching", "--replace", "");
  const output = await runChecked(rgPath, directory, args, query.signal, { maxStdoutBytes: maxBytes });
  return output ? parseLineNumbers(output) : null;
}

/** `ripgrepArguments` without line numbers, context and long-line previews (a counting run prints no lines). */
function withoutLineOutputFlags(args: string[], query: GrepQuery): string[] {
  const kept = args.filter((arg) => arg !== "--heading" && arg !== "--line-number" && arg !== "--max-columns-preview");
  kept.splice(kept.indexOf("--max-columns"), 2);
  kept.splice(kept.indexOf("--context"), query.context > 0 ? 2 : 0);
  return kept;
}

/**
 * Runs a query in two ripgrep passes: `--count` gives every file's matching
 * lines (tiny output), then only the files holding the requested page are
 * searched again for their lines (on one thread when they are few). A
 * files page takes one run printing only line numbers instead
 * ({@link filesWithFirstLines}). Same
 * hits as {@link grepWithRipgrep} for everything the formatter reads;
 * multi-line queries (where `--count` counts matches, not lines) take the
 * single pass.
 *
 * The page's files are passed to ripgrep as arguments, in batches of at
 * most 256 KiB of arguments ({@link batchFileArguments}, two runs at a
 * time): any page size works, far below the kernel's ARG_MAX.
 *
 * A content page reaching {@link SINGLE_PASS_MIN_LINES} lines or more
 * first tries one pass that prints everything, stopped once its output
 * exceeds what such a page needs (256 bytes per line) for the two passes:
 * rendering all of a search's lines then costs one ripgrep run, not two.
 *
 * Why not one pass for small results: the size of a result is only known
 * once it is printed, and a single pass stopped when its output grows costs
 * a process start plus the work so far. Measured on the benchmark trees
 * (best of 7, ms; rg itself: base 96-98 rare, 173-213 common/regex): always
 * two passes 110 / 216 / 185 (base rare / common / regex) and x20 within 1%
 * of rg; a single pass stopped past 16 KiB 100 / 240 / 207 but x20 rare
 * 2475 (its 23 KB of output arrives late, so the stopped run was nearly
 * complete); stopped past 256 KiB 97 / 242 / 238.
 */
export async function grepWithRipgrepPaged(
  rgPath: string,
  directory: string,
  query: GrepQuery,
  filter: (relative: string) => boolean,
  page: GrepPage,
  options: GrepPagedOptions = {},
): Promise<GrepFileHits[]> {
  if (query.multiline) return (await grepWithRipgrep(rgPath, directory, query)).filter((file) => filter(file.path));
  const pageLines = page.offset + page.headLimit;
  // When a small output cap, not head_limit, ends the page, the count pass shows how far it can reach: no single pass.
  // (A cap of megabytes is a host asking for everything: one pass then beats counting and passing every file back.)
  const capEndsPage =
    page.maxChars !== undefined && page.maxChars <= CAPPED_PAGE_MAX_CHARS && page.headLimit > Math.ceil(page.maxChars / MIN_LINE_CHARS_BESIDES_PATH);
  if (page.outputMode === "content" && !capEndsPage && pageLines >= (options.singlePassMinLines ?? SINGLE_PASS_MIN_LINES)) {
    const maxBytes = pageLines * (2 * query.context + 1) * (options.singlePassBytesPerLine ?? SINGLE_PASS_BYTES_PER_LINE);
    const files = await runParsed(rgPath, directory, ripgrepArguments(query), query.signal, query.context > 0, maxBytes);
    if (files) return files.filter((file) => filter(file.path));
  }
  if (page.outputMode === "files") {
    // One run gives what a files page shows; a second process start costs about as much as searching a small tree.
    const files = await filesWithFirstLines(rgPath, directory, query, options.lineNumbersMaxBytes ?? LINE_NUMBERS_MAX_BYTES);
    if (files) return files.filter((file) => filter(file.path));
  }
  const countArgs = withoutLineOutputFlags(ripgrepArguments(query), query);
  countArgs.unshift("--count");
  const counted = parseCounts((await runChecked(rgPath, directory, countArgs, query.signal))!)
    .filter((file) => file.count > 0 && filter(file.path))
    .sort((a, b) => comparePaths(a.path, b.path));
  if (page.outputMode === "count") return counted.map((file) => new CountedFileHits(file.path, file.count));
  const onPage = new Set<number>();
  if (page.outputMode === "files") {
    for (let index = page.offset; index < Math.min(counted.length, pageLines); index += 1) onPage.add(index);
  } else {
    let matchIndex = 0;
    let leastChars = 0; // a lower bound of the page's rendered characters so far
    const reach = capEndsPage ? page.maxChars! : Number.POSITIVE_INFINITY;
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
  // A path that is not valid UTF-8 cannot be passed back: take the single pass.
  if ([...onPage].some((index) => counted[index]!.path.includes("\uFFFD"))) {
    return (await grepWithRipgrep(rgPath, directory, query)).filter((file) => filter(file.path));
  }
  const pageHits = new Map<string, GrepFileHits>();
  const batches = batchFileArguments(
    [...onPage].map((index) => `./${counted[index]!.path}`),
    options.fileArgumentBytes ?? RIPGREP_FILE_ARGUMENT_BYTES,
  );
  const outputs = await runBatches(batches, RIPGREP_BATCH_CONCURRENCY, query.signal, (files, signal) => {
    const args = ripgrepArguments(query);
    args.splice(args.length - 1, 1, ...files);
    args.unshift("--with-filename"); // one explicit file would print no name
    // A few files search fastest on one thread: no thread pool to start (21 -> 14 ms for 4 files).
    if (files.length <= 8) args.unshift("--threads", "1");
    if (page.outputMode === "files") args.unshift("--max-count", "1");
    return runParsed(rgPath, directory, args, signal, query.context > 0) as Promise<GrepFileHits[]>;
  });
  for (const files of outputs) for (const file of files) pageHits.set(file.path, file);
  return counted.map((file, index) => {
    const hits = onPage.has(index) ? pageHits.get(file.path) : undefined;
    return hits ? new LimitedFileHits(hits, file.count) : new CountedFileHits(file.path, file.count);
  });
}
