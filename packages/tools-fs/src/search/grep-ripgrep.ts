import { ToolError } from "@agent-tools/core";
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
 * Per-file hits parsed from ripgrep's `--heading --null` output, kept as
 * byte offsets into the output; text is decoded only for lines shown.
 */
class RipgrepFileHits implements GrepFileHits {
  readonly matchLines: number[] = [];
  private readonly lines: number[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  constructor(
    readonly path: string,
    private readonly output: Buffer,
  ) {}

  add(line: number, isMatch: boolean, start: number, end: number): void {
    // A line printed twice (multi-line matches) keeps its first record.
    const last = this.lines.length - 1;
    if (last >= 0 && this.lines[last] === line) return;
    this.lines.push(line);
    this.starts.push(start);
    this.ends.push(end);
    if (isMatch) this.matchLines.push(line);
  }

  lineText(line: number): string | undefined {
    let low = 0;
    let high = this.lines.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.lines[middle]!;
      if (value === line) return this.output.toString("utf8", this.starts[middle], this.ends[middle]);
      if (value < line) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }
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

/** Parses `--heading --null --line-number` output: `path\0N:text\n...` groups separated by empty lines. */
export function parseRipgrepOutput(output: Buffer): RipgrepFileHits[] {
  const files: RipgrepFileHits[] = [];
  const length = output.length;
  let position = 0;
  while (position < length) {
    const nul = output.indexOf(0, position);
    if (nul === -1) break;
    let name = output.toString("utf8", position, nul);
    if (name.startsWith("./")) name = name.slice(2);
    const file = new RipgrepFileHits(name, output);
    files.push(file);
    position = nul + 1;
    while (position < length) {
      const newline = output.indexOf(10, position);
      const lineEnd = newline === -1 ? length : newline;
      if (lineEnd === position) {
        position += 1; // the empty line between files
        break;
      }
      let cursor = position;
      let number = 0;
      let byte = output[cursor]!;
      while (byte >= 48 && byte <= 57) {
        number = number * 10 + (byte - 48);
        byte = output[++cursor]!;
      }
      if (cursor > position && (byte === 58 || byte === 45)) {
        let end = lineEnd;
        if (end > cursor + 1 && output[end - 1] === 13) end -= 1;
        file.add(number, byte === 58, cursor + 1, end);
      }
      position = lineEnd + 1;
    }
  }
  return files;
}

/** Runs a query with ripgrep under `directory`. */
export async function grepWithRipgrep(rgPath: string, directory: string, query: GrepQuery): Promise<GrepFileHits[]> {
  const output = await runRipgrep(rgPath, ripgrepArguments(query), { cwd: directory, signal: query.signal });
  if (output.exitCode === 2 && /regex parse error|error parsing regex|literal .* is not allowed|look-around|backreferences/i.test(output.stderr)) {
    const detail = output.stderr.trim().split("\n").slice(0, 8).join("\n");
    throw new ToolError("regex_invalid", `Grep pattern is not a valid regular expression (Rust regex syntax: no look-around or backreferences):\n${detail}\nEscape special characters for a literal search, or set multiline=true to match across lines.`);
  }
  if (output.exitCode !== 0 && output.exitCode !== 1 && output.stdout.length === 0) {
    throw new ToolError("io", `Grep failed: ${output.stderr.trim().split("\n")[0] || `ripgrep exited with ${output.exitCode}`}.`);
  }
  return parseRipgrepOutput(output.stdout);
}
