import { type ProgramRunner, ToolError } from "@agent-tools/core";
import { GREP_CLIP_BYTES, type GrepByteRange, type GrepFileHits } from "./grep-result.js";
import { RipgrepRecordSplitter } from "./grep-ripgrep-records.js";
import { type GrepPageReach, type HitsRetention, arrivalRetention, pageRetention } from "./grep-ripgrep-retention.js";
import { RIPGREP_WALK_FLAGS, runRipgrep } from "./ripgrep.js";
import type { RipgrepFileCounted } from "./ripgrep-count-parsers.js";
import type { RunRipgrepOptions } from "./ripgrep-run-types.js";

/** A Grep query as both engines take it. */
export interface GrepQuery {
  pattern: string;
  ignoreCase: boolean;
  multiline: boolean;
  context: number;
  /** Base-name globs ripgrep may pre-filter with (a superset of the wanted files). */
  prefilterGlobs?: readonly string[];
  /** Folders skipped with everything below them, relative to the search directory with `/` (the path policy's `walkExclusions`). */
  excludeDirectories?: readonly string[];
  signal?: AbortSignal;
  /**
   * Starts ripgrep; default this machine's (the Node adapter). A workspace's
   * runner (ripgrep on another machine) gives its output through a pipe
   * only, so runs that would write into a temporary file read the pipe.
   */
  runner?: ProgramRunner;
}

/**
 * Per-file hits of ripgrep's `--heading --null` output, kept as a byte range
 * of the output. Without context every record is a match, so the count is a
 * line-feed count (`indexOf`, at memchr speed) and the records are parsed only when
 * the file's lines are shown; text is decoded only for lines shown.
 */
class RipgrepFileHits implements GrepFileHits {
  readonly matchCount: number;
  readonly firstMatchLine: number;
  private readonly output: Buffer;
  private readonly start: number;
  private readonly end: number;
  private parsed: { lines: number[]; starts: number[]; ends: number[]; matches: number[] } | undefined;
  private lastRecord = -1;

  /** `records` is where the file's records lie in ripgrep's output. */
  constructor(
    readonly path: string,
    records: GrepByteRange,
    private readonly withContext: boolean,
  ) {
    const { buffer: output, start, end } = records;
    this.output = output;
    this.start = start;
    this.end = end;
    if (withContext) {
      const parsed = this.parse();
      this.matchCount = parsed.matches.length;
      this.firstMatchLine = parsed.matches[0] ?? 0;
    } else {
      this.matchCount = countLf(output, start, end);
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

  /** Index of `line` among the parsed records, or -1. */
  private recordOf(line: number): number {
    const lines = this.parse().lines;
    // Lines are rendered in order: try the record after the last one found first.
    const guess = this.lastRecord + 1;
    if (lines[guess] === line) return (this.lastRecord = guess);
    let low = 0;
    let high = lines.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = lines[middle]!;
      if (value === line) return (this.lastRecord = middle);
      if (value < line) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  lineText(line: number): string | undefined {
    const record = this.recordOf(line);
    if (record === -1) return undefined;
    const start = this.parsed!.starts[record]!;
    const end = this.parsed!.ends[record]!;
    // A longer line is ripgrep's preview: only its start is the line's (see RIPGREP_MAX_COLUMNS).
    return this.output.toString("utf8", start, end - start > RIPGREP_MAX_COLUMNS ? start + GREP_CLIP_BYTES : end);
  }

  matchRecords(range: GrepByteRange): boolean {
    if (this.withContext) return false;
    range.buffer = this.output;
    range.start = this.start;
    range.end = this.end;
    return true;
  }

  lineBytes(line: number, range: GrepByteRange): boolean {
    const record = this.recordOf(line);
    if (record === -1) return false;
    range.buffer = this.output;
    range.start = this.parsed!.starts[record]!;
    range.end = this.parsed!.ends[record]!;
    return true;
  }
}

/** Reads the decimal number at `position` of `output`; `next` is the offset after it. */
export function readNumber(output: Buffer, position: number): { value: number; next: number } {
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

/**
 * Lines longer than this many bytes are printed by ripgrep as a preview of
 * their first RIPGREP_MAX_COLUMNS characters (at least as many bytes) and a
 * note: more than the {@link GREP_CLIP_BYTES} Grep shows from (minified
 * files have lines of megabytes, which would otherwise be piped in whole).
 * A printed line longer than this is such a preview.
 */
export const RIPGREP_MAX_COLUMNS = 2048;

/** Builds ripgrep's arguments for a query (search path "."). */
export function ripgrepArguments(query: GrepQuery): string[] {
  const args = [
    "--heading",
    "--null",
    "--line-number",
    "--color",
    "never",
    "--crlf",
    "--max-columns",
    String(RIPGREP_MAX_COLUMNS),
    "--max-columns-preview",
    ...RIPGREP_WALK_FLAGS,
  ];
  if (query.ignoreCase) args.push("--ignore-case");
  else args.push("--case-sensitive");
  if (query.multiline) args.push("--multiline", "--multiline-dotall");
  if (query.context > 0) args.push("--context", String(query.context));
  // File types, not --glob: ripgrep's globs would override the ignore files.
  for (const glob of query.prefilterGlobs ?? []) args.push("--type-add", `agentprefilter:${glob}`);
  if (query.prefilterGlobs?.length) args.push("--type", "agentprefilter");
  // Negated globs only exclude: files they do not match still follow the ignore files.
  for (const excluded of query.excludeDirectories ?? []) args.push("--glob", `!/${excluded.replace(/[\\*?[\]{}!]/g, "\\$&")}`);
  args.push("--regexp", query.pattern, "--", ".");
  return args;
}

/**
 * Splits `--heading --null --line-number` output into files (see
 * {@link RipgrepRecordSplitter}); `parseEagerly` parses each file's records
 * at once (needed with context lines, where a record may not be a match).
 */
export function parseRipgrepOutput(output: Buffer, parseEagerly = false): GrepFileHits[] {
  const parser = ripgrepOutputParser(parseEagerly);
  parser.push(output);
  return parser.end().files;
}

/** What a ripgrep run's output was parsed into. */
export interface ParsedRipgrepOutput {
  /** Every file with a match, in ripgrep's order. */
  files: GrepFileHits[];
  /**
   * Whether every file the page may show keeps its lines. False once the
   * parser's retention only counted such a file (`CountedFileHits`:
   * match count and first line, no text): its lines must be searched again.
   */
  complete: boolean;
}

/** What {@link ripgrepOutputParser} returns: feed it chunks, then take the files. */
export interface RipgrepOutputParser {
  push(chunk: Buffer): void;
  end(): ParsedRipgrepOutput;
}

/**
 * Parses ripgrep's output chunk by chunk, as it arrives (see
 * {@link parseRipgrepOutput}). `retention` decides which files keep their
 * lines (views of the chunks): a number keeps files as they arrive until
 * they add up to more than that many bytes of records and only counts the
 * rest ({@link arrivalRetention}); a {@link HitsRetention} such as
 * {@link pageRetention} keeps what a page can reach. Chunks no kept file
 * refers to are let go, so a run printing gigabytes holds little of them.
 * `onFile` hears of each file as soon as its records are complete.
 */
export function ripgrepOutputParser(
  parseEagerly = false,
  retention: number | HitsRetention = Number.POSITIVE_INFINITY,
  onFile?: RipgrepFileCounted,
): RipgrepOutputParser {
  const files: GrepFileHits[] = [];
  const retain = typeof retention === "number" ? arrivalRetention(retention) : retention;
  const splitter = new RipgrepRecordSplitter((path, buffer, start, end) => {
    const hits = new RipgrepFileHits(path, { buffer, start, end }, parseEagerly);
    onFile?.(path, hits.matchCount);
    retain.add(files, hits, end - start);
  });
  return {
    push: (chunk) => splitter.push(chunk),
    end() {
      splitter.end();
      return { files, complete: retain.complete };
    },
  };
}

/** One ripgrep run: the binary, the folder it runs in, its arguments and what cancels it. */
export interface RipgrepInvocation {
  rgPath: string;
  /** ripgrep's working directory (the search path "." is relative to it). */
  directory: string;
  args: string[];
  signal?: AbortSignal | undefined;
  /** Starts ripgrep (see {@link GrepQuery.runner}); default this machine's. */
  runner?: ProgramRunner | undefined;
}

/**
 * Runs ripgrep and turns its failures into tool errors; null when the run
 * printed more than `maxStdoutBytes` and was stopped. With `onStdout` the
 * output goes there as it arrives (the Buffer returned is then empty).
 */
export async function runChecked(
  invocation: RipgrepInvocation,
  options: Pick<RunRipgrepOptions, "maxStdoutBytes" | "onStdout" | "outputFile"> = {},
): Promise<Buffer | null> {
  const { rgPath, directory, args, signal, runner } = invocation;
  // Only this machine's runner can hand ripgrep a file to write into.
  const output = await runRipgrep(rgPath, args, { cwd: directory, signal, ...options, ...(runner ? { runner, outputFile: false } : {}) });
  if (output.exceeded) return null;
  if (output.exitCode === 2 && /regex parse error|error parsing regex|literal .* is not allowed|look-around|backreferences/i.test(output.stderr)) {
    const detail = output.stderr.trim().split("\n").slice(0, 8).join("\n");
    throw new ToolError(
      "regex_invalid",
      `Grep pattern is not a valid regular expression (Rust regex syntax: no look-around or backreferences):\n${detail}\nEscape special characters for a literal search, or set multiline=true to match across lines.`,
    );
  }
  if (output.endedBySignal) {
    throw new ToolError(
      "io",
      `Grep failed: ripgrep was ended by ${output.endedBySignal} before it finished (out of memory?), so its result is incomplete. Try again, or narrow path or file_pattern.`,
    );
  }
  if (output.exitCode !== 0 && output.exitCode !== 1 && output.stdoutBytes === 0) {
    throw new ToolError("io", `Grep failed: ${output.stderr.trim().split("\n")[0] || `ripgrep exited with ${output.exitCode}`}.`);
  }
  return output.stdout;
}

/** How {@link runParsed} runs ripgrep and keeps its output. */
export interface RunParsedOptions {
  /** Parse each file's records at once (context lines). */
  parseEagerly: boolean;
  /** Stop the run once it printed more than this (then `runParsed` returns null). */
  maxStdoutBytes?: number;
  /** ripgrep writes into a temporary file, not a pipe (see `RunRipgrepOptions.outputFile`). */
  outputFile?: boolean;
  /** Bytes of records kept with their lines, in the order ripgrep prints them; files past them are only counted (see {@link ripgrepOutputParser}). */
  retainBytes?: number;
  /** Keep only the lines of the files this page can reach (see {@link pageRetention}); `retainBytes` is then ignored. */
  reach?: GrepPageReach;
  /** Hears of each file with a match as ripgrep prints it (a search's progress). */
  onFile?: RipgrepFileCounted;
}

/**
 * Runs ripgrep and parses its hits as they arrive; null when the run
 * printed more than `maxStdoutBytes` and was stopped.
 */
export async function runParsed(invocation: RipgrepInvocation, options: RunParsedOptions): Promise<ParsedRipgrepOutput | null> {
  const retention = options.reach ? pageRetention(options.reach) : options.retainBytes;
  const parser = ripgrepOutputParser(options.parseEagerly, retention, options.onFile);
  const stdout = await runChecked(invocation, {
    maxStdoutBytes: options.maxStdoutBytes,
    outputFile: options.outputFile,
    onStdout: (chunk) => parser.push(chunk),
  });
  return stdout ? parser.end() : null;
}

/** Runs a query with ripgrep under `directory`, every hit parsed from one run; `onFile` hears of each file as it is printed. */
export async function grepWithRipgrep(rgPath: string, directory: string, query: GrepQuery, onFile?: RipgrepFileCounted): Promise<GrepFileHits[]> {
  return (await runParsed(
    { rgPath, directory, args: ripgrepArguments(query), signal: query.signal, runner: query.runner },
    { parseEagerly: query.context > 0 || query.multiline, onFile },
  ))!.files;
}
