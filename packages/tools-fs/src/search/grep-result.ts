/** The hits of one file, as either Grep engine reports them. */
export interface GrepFileHits {
  /** Path relative to the search directory, `/`-separated. */
  readonly path: string;
  /** How many lines match. */
  readonly matchCount: number;
  /** The first matching line (1-based). */
  readonly firstMatchLine: number;
  /** 1-based numbers of the matching lines, ascending (may be computed on first use). */
  matchLines(): readonly number[];
  /**
   * Text of a line of this file (a match line, or a context line within the
   * requested context), without its line ending; undefined when not known
   * or past the end of the file.
   */
  lineText(line: number): string | undefined;
}

/** Output modes of Grep. */
export type GrepOutputMode = "content" | "files" | "count";

/** What the formatter needs besides the hits. */
export interface GrepFormatOptions {
  outputMode: GrepOutputMode;
  offset: number;
  headLimit: number;
  context: number;
  /** Display form of the search directory ("." for the workspace root). */
  displayDirectory: string;
  pattern: string;
}

/** Longest line text shown, in characters. */
export const GREP_LINE_CHARS = 400;

/** Trims line endings and cuts a line to {@link GREP_LINE_CHARS}. */
export function clipLine(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 13 || text.charCodeAt(end - 1) === 10)) end -= 1;
  const trimmed = end === text.length ? text : text.slice(0, end);
  return trimmed.length > GREP_LINE_CHARS ? `${trimmed.slice(0, GREP_LINE_CHARS)}...` : trimmed;
}
