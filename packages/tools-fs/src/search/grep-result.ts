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
   * or past the end of the file. Of a line longer than
   * {@link GREP_CLIP_BYTES} bytes, it may be only a start at least that long
   * (all that is shown of it).
   */
  lineText(line: number): string | undefined;
  /**
   * Where the UTF-8 bytes of {@link lineText}'s text lie, for hits that keep
   * them (ripgrep's output): fills `range` and returns true, else false.
   * Optional; the renderer then copies bytes instead of decoding the line.
   */
  lineBytes?(line: number, range: GrepByteRange): boolean;
  /**
   * Where every matching line of this file lies as ripgrep printed it, one
   * `N:text` record per line ending with a line feed, in order and nothing
   * else between (no context lines): fills `range` and returns true, else
   * false. Optional; the renderer then writes a file whose lines are all on
   * the page in one loop over these bytes.
   */
  matchRecords?(range: GrepByteRange): boolean;
  /** Lets go of what was loaded to show lines (the renderer calls it once it wrote this file's lines). Optional. */
  release?(): void;
}

/** A range of bytes (see {@link GrepFileHits.lineBytes}). */
export interface GrepByteRange {
  buffer: Buffer;
  start: number;
  end: number;
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
  /**
   * Characters the answer may carry (the executor's output cap). Content
   * pages stop rendering before it and say where to continue, instead of
   * rendering lines the executor would cut.
   */
  maxChars?: number;
}

/** Longest line text shown, in characters. */
export const GREP_LINE_CHARS = 400;

/**
 * Bytes whose decoding surely holds more than {@link GREP_LINE_CHARS}
 * UTF-16 code units (a code unit takes at most 3 bytes, a surrogate pair 4
 * bytes for 2 units), with the first GREP_LINE_CHARS + 1 of them exact: a
 * longer line is shown from the decoding of its first GREP_CLIP_BYTES bytes.
 */
export const GREP_CLIP_BYTES = (GREP_LINE_CHARS + 2) * 4;

/** Trims line endings and cuts a line to {@link GREP_LINE_CHARS}. */
export function clipLine(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 13 || text.charCodeAt(end - 1) === 10)) end -= 1;
  const trimmed = end === text.length ? text : text.slice(0, end);
  return trimmed.length > GREP_LINE_CHARS ? `${trimmed.slice(0, GREP_LINE_CHARS)}...` : trimmed;
}
