import { ToolError } from "@agent-tools/core";
import { countLineEndings } from "../shared/line-ending-count.js";
import type { GrepFileHits } from "./grep-result.js";
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

/**
 * Runs ripgrep and turns its failures into tool errors; null when the run
 * printed more than `maxStdoutBytes` and was stopped.
 */
export async function runChecked(
  rgPath: string,
  directory: string,
  args: string[],
  signal: AbortSignal | undefined,
  maxStdoutBytes?: number,
): Promise<Buffer | null> {
  const output = await runRipgrep(rgPath, args, { cwd: directory, signal, maxStdoutBytes });
  if (output.exceeded) return null;
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
  return parseRipgrepOutput(stdout!, query.context > 0 || query.multiline);
}
