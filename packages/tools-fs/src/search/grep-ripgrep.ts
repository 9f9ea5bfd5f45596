import { ToolError } from "@agent-tools/core";
import { countLineEndings } from "../shared/line-ending-count.js";
import { comparePaths } from "./file-walker.js";
import type { GrepFileHits, GrepOutputMode } from "./grep-result.js";
import { RIPGREP_WALK_FLAGS, runRipgrep } from "./ripgrep.js";

/** A Grep query as both engines take it. */
export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  multiline: boolean;
  context: number;
  /** Base-name globs ripgrep may pre-filter with (a superset of the wanted files). */
  prefilterGlobs?: readonly string[];
  signal?: AbortSignal;
}

/**
 * Per-file hits of ripgrep's `--heading --null` output, kept as a byte range
 * of the output. Without context every record is a match, so the count is a
 * line-feed count (one WebAssembly pass) and the records are parsed only when
 * the file's lines are shown; text is decoded only for lines shown.
 */
class RipgrepFileHits implements GrepFileHits {
  readonly matchCount: number;
  readonly firstMatchLine: number;
  private parsed: { lines: number[]; starts: number[]; ends: number[]; matches: number[] } | undefined;

  constructor(
    readonly path: string,
    private readonly output: Buffer,
    private readonly start: number,
    private readonly end: number,
    withContext: boolean,
  ) {
    if (withContext) {
      const parsed = this.parse();
      this.matchCount = parsed.matches.length;
      this.firstMatchLine = parsed.matches[0] ?? 0;
    } else {
      this.matchCount = end - start > 4096 ? countLineEndings(output.subarray(start, end)).lf : countLf(output, start, end);
      this.firstMatchLine = readNumber(output, start).value;
    }
  }

  private parse() {
    if (this.parsed) return this.parsed;
    const parsed = { lines: [] as number[], starts: [] as number[], ends: [] as number[], matches: [] as number[] };
    const output = this.output;
    let position = this.start;
    while (position < this.end) {
      const newline = output.indexOf(10, position);
      const lineEnd = newline === -1 || newline > this.end ? this.end : newline;
      const { value, next } = readNumber(output, position);
      const separator = output[next];
      if (next > position && (separator === 58 || separator === 45)) {
        const last = parsed.lines.length - 1;
        // A line printed twice (multi-line matches) keeps its first record.
        if (last < 0 || parsed.lines[last] !== value) {
          let textEnd = lineEnd;
          if (textEnd > next + 1 && output[textEnd - 1] === 13) textEnd -= 1;
          parsed.lines.push(value);
          parsed.starts.push(next + 1);
          parsed.ends.push(textEnd);
          if (separator === 58) parsed.matches.push(value);
        }
      }
      position = lineEnd + 1;
    }
    this.parsed = parsed;
    return parsed;
  }

  matchLines(): readonly number[] {
    return this.parse().matches;
  }

  lineText(line: number): string | undefined {
    const { lines, starts, ends } = this.parse();
    let low = 0;
    let high = lines.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = lines[middle]!;
      if (value === line) return this.output.toString("utf8", starts[middle], ends[middle]);
      if (value < line) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
}

function readNumber(output: Buffer, position: number): { value: number; next: number } {
  let value = 0;
  let cursor = position;
  let byte = output[cursor]!;
  while (byte >= 48 && byte <= 57) {
    value = value * 10 + (byte - 48);
    byte = output[++cursor]!;
  }
  return { value, next: cursor };
}

function countLf(output: Buffer, start: number, end: number): number {
  let count = 0;
  for (let index = output.indexOf(10, start); index !== -1 && index < end; index = output.indexOf(10, index + 1)) count += 1;
  return count;
}

/** Builds ripgrep's arguments for a query (search path "."). */
export function ripgrepArguments(query: GrepQuery): string[] {
  const args = ["--heading", "--null", "--line-number", "--color", "never", "--crlf", ...RIPGREP_WALK_FLAGS];
  if (query.ignoreCase) args.push("--ignore-case");
  else args.push("--case-sensitive");
  if (query.multiline) args.push("--multiline", "--multiline-dotall");
  if (query.context > 0) args.push("--context", String(query.context));
  // File types, not --glob: ripgrep's globs would override the ignore files.
  for (const glob of query.prefilterGlobs ?? []) args.push("--type-add", `agentprefilter:${glob}`);
  if (query.prefilterGlobs?.length) args.push("--type", "agentprefilter");
  args.push("--regexp", query.pattern, "--", ".");
  return args;
}

/**
 * Splits `--heading --null --line-number` output into files: `path\0`
 * followed by `N:text` / `N-text` / `--` lines, files separated by an empty
 * line (no record line is ever empty, so an empty line only separates
 * files). With `--crlf` on one thread ripgrep ends that empty line with
 * CRLF, so both "\n\n" and "\n\r\n" separate files.
 */
export function parseRipgrepOutput(output: Buffer, parseEagerly = false): RipgrepFileHits[] {
  const files: RipgrepFileHits[] = [];
  const length = output.length;
  // Next occurrence of each separator form, searched again only once passed (no rescans).
  let nextLf = -2;
  let nextCrlf = -2;
  let position = 0;
  while (position < length) {
    const nul = output.indexOf(0, position);
    if (nul === -1) break;
    let name = output.toString("utf8", position, nul);
    if (name.startsWith("./")) name = name.slice(2);
    if (nextLf !== -1 && nextLf < nul) nextLf = output.indexOf("\n\n", nul + 1, "latin1");
    if (nextCrlf !== -1 && nextCrlf < nul) nextCrlf = output.indexOf("\n\r\n", nul + 1, "latin1");
    const separator = nextLf === -1 ? nextCrlf : nextCrlf === -1 ? nextLf : Math.min(nextLf, nextCrlf);
    const end = separator === -1 ? length : separator + 1;
    files.push(new RipgrepFileHits(name, output, nul + 1, end, parseEagerly));
    position = separator === -1 ? length : separator + (separator === nextLf ? 2 : 3);
  }
  return files;
}

/** Runs ripgrep and turns its failures into tool errors. */
async function runChecked(rgPath: string, directory: string, args: string[], signal: AbortSignal | undefined): Promise<Buffer> {
  const output = await runRipgrep(rgPath, args, { cwd: directory, signal });
  if (output.exitCode === 2 && /regex parse error|error parsing regex|literal .* is not allowed|look-around|backreferences/i.test(output.stderr)) {
    const detail = output.stderr.trim().split("\n").slice(0, 8).join("\n");
    throw new ToolError(
      "regex_invalid",
      `Grep pattern is not a valid regular expression (Rust regex syntax: no look-around or backreferences):\n${detail}\nEscape special characters for a literal search, or set multiline=true to match across lines.`,
    );
  }
  if (output.exitCode !== 0 && output.exitCode !== 1 && output.stdout.length === 0) {
    throw new ToolError("io", `Grep failed: ${output.stderr.trim().split("\n")[0] || `ripgrep exited with ${output.exitCode}`}.`);
  }
  return output.stdout;
}

/** Runs a query with ripgrep under `directory`, every hit parsed from one run. */
export async function grepWithRipgrep(rgPath: string, directory: string, query: GrepQuery): Promise<GrepFileHits[]> {
  const stdout = await runChecked(rgPath, directory, ripgrepArguments(query), query.signal);
  return parseRipgrepOutput(stdout, query.context > 0 || query.multiline);
}

/** The page Grep will render, so ripgrep need print only the files on it. */
export interface GrepPage {
  outputMode: GrepOutputMode;
  offset: number;
  headLimit: number;
}

/** A file known only by its match count (off the page: never rendered). */
class CountedFileHits implements GrepFileHits {
  readonly firstMatchLine = 0;
  constructor(
    readonly path: string,
    readonly matchCount: number,
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
}

/** Parses `--count --null` output: `path\0N` lines. */
function parseCounts(output: Buffer): { path: string; count: number }[] {
  const files: { path: string; count: number }[] = [];
  let position = 0;
  while (position < output.length) {
    const nul = output.indexOf(0, position);
    if (nul === -1) break;
    let name = output.toString("utf8", position, nul);
    if (name.startsWith("./")) name = name.slice(2);
    const { value, next } = readNumber(output, nul + 1);
    files.push({ path: name, count: value });
    const newline = output.indexOf(10, next);
    position = newline === -1 ? output.length : newline + 1;
  }
  return files;
}

/**
 * Runs a query in two ripgrep passes: `--count` gives every file's matching
 * lines (tiny output), then only the files holding the requested page are
 * searched again for their lines (on one thread when they are few). Same
 * hits as {@link grepWithRipgrep} for everything the formatter reads;
 * multi-line queries (where `--count` counts matches, not lines) take the
 * single pass.
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
): Promise<GrepFileHits[]> {
  if (query.multiline) return (await grepWithRipgrep(rgPath, directory, query)).filter((file) => filter(file.path));
  const countArgs = ripgrepArguments(query).filter((arg) => arg !== "--heading" && arg !== "--line-number");
  countArgs.splice(countArgs.indexOf("--context"), query.context > 0 ? 2 : 0);
  countArgs.unshift("--count");
  const counted = parseCounts(await runChecked(rgPath, directory, countArgs, query.signal))
    .filter((file) => file.count > 0 && filter(file.path))
    .sort((a, b) => comparePaths(a.path, b.path));
  if (page.outputMode === "count") return counted.map((file) => new CountedFileHits(file.path, file.count));
  const onPage = new Set<number>();
  if (page.outputMode === "files") {
    for (let index = page.offset; index < Math.min(counted.length, page.offset + page.headLimit); index += 1) onPage.add(index);
  } else {
    const end = page.offset + page.headLimit;
    let matchIndex = 0;
    for (let index = 0; index < counted.length && matchIndex < end; index += 1) {
      if (matchIndex + counted[index]!.count > page.offset) onPage.add(index);
      matchIndex += counted[index]!.count;
    }
  }
  // A path that is not valid UTF-8 cannot be passed back: take the single pass.
  if ([...onPage].some((index) => counted[index]!.path.includes("\uFFFD"))) {
    return (await grepWithRipgrep(rgPath, directory, query)).filter((file) => filter(file.path));
  }
  const pageHits = new Map<string, GrepFileHits>();
  if (onPage.size > 0) {
    const args = ripgrepArguments(query);
    args.splice(args.length - 1, 1, ...[...onPage].map((index) => `./${counted[index]!.path}`));
    args.unshift("--with-filename"); // one explicit file would print no name
    // A few files search fastest on one thread: no thread pool to start (21 -> 14 ms for 4 files).
    if (onPage.size <= 8) args.unshift("--threads", "1");
    if (page.outputMode === "files") args.unshift("--max-count", "1");
    for (const file of parseRipgrepOutput(await runChecked(rgPath, directory, args, query.signal), query.context > 0)) pageHits.set(file.path, file);
  }
  return counted.map((file, index) => {
    const hits = onPage.has(index) ? pageHits.get(file.path) : undefined;
    return hits ? new LimitedFileHits(hits, file.count) : new CountedFileHits(file.path, file.count);
  });
}
