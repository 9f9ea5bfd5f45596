/**
 * Hits of the pure TypeScript engine: the matching line numbers of a file
 * and its text, either decoded already ({@link TextFileHits}) or read again
 * as bytes when a line is shown ({@link FileBytesHits}).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { GrepByteRange, GrepFileHits } from "./grep-result.js";

/** What both kinds of hits share: the path and the matching line numbers the search found. */
abstract class LineNumberHits {
  readonly matchCount: number;
  readonly firstMatchLine: number;

  constructor(
    readonly path: string,
    private readonly lines: number[],
  ) {
    this.matchCount = lines.length;
    this.firstMatchLine = lines[0] ?? 0;
  }

  matchLines(): readonly number[] {
    return this.lines;
  }
}

/** Hits over a decoded text (CRLF already turned into LF). */
export class TextFileHits extends LineNumberHits implements GrepFileHits {
  private lineStarts: number[] | undefined;

  constructor(
    path: string,
    lines: number[],
    private readonly text: string,
  ) {
    super(path, lines);
  }

  lineText(line: number): string | undefined {
    const text = this.text;
    if (!this.lineStarts) {
      const starts = [0];
      for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) if (index + 1 < text.length) starts.push(index + 1);
      this.lineStarts = starts;
    }
    if (line < 1 || line > this.lineStarts.length || text.length === 0) return undefined;
    const start = this.lineStarts[line - 1]!;
    const next = line < this.lineStarts.length ? this.lineStarts[line]! - 1 : text.length;
    return text.slice(start, next);
  }
}

const LF = 10;
const CR = 13;

/**
 * Hits whose file is read again, as bytes, when its first line is shown
 * (the search decoded only its matching lines), and let go by
 * {@link release} once rendered. Lines are handed to the renderer as byte
 * ranges, so a file is never decoded whole: the text equals what
 * {@link decodeText} gives (a UTF-8 byte order mark dropped, CRLF read as
 * LF, invalid bytes decoded the same way, since they end at a line feed
 * either way; see `decodeText` in grep-line-scan.ts).
 */
export class FileBytesHits extends LineNumberHits implements GrepFileHits {
  private bytes: Buffer | undefined;
  /** Start of each line in `bytes`; the file's end is after the last. */
  private lineStarts: number[] | undefined;

  constructor(
    path: string,
    lines: number[],
    private readonly directory: string,
  ) {
    super(path, lines);
  }

  private load(): { bytes: Buffer; starts: number[] } {
    if (!this.bytes || !this.lineStarts) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(path.join(this.directory, this.path));
      } catch {
        bytes = Buffer.alloc(0); // vanished since the search
      }
      const starts = [bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0];
      for (let index = bytes.indexOf(LF, starts[0]); index !== -1; index = bytes.indexOf(LF, index + 1)) if (index + 1 < bytes.length) starts.push(index + 1);
      this.bytes = bytes;
      this.lineStarts = starts;
    }
    return { bytes: this.bytes, starts: this.lineStarts };
  }

  lineBytes(line: number, range: GrepByteRange): boolean {
    const { bytes, starts } = this.load();
    if (line < 1 || line > starts.length || bytes.length <= starts[0]!) return false;
    const start = starts[line - 1]!;
    let end = line < starts.length ? starts[line]! - 1 : bytes.length;
    // The line feed is not part of the line, nor the CR of a CRLF.
    if (end < bytes.length && bytes[end] === LF && end > start && bytes[end - 1] === CR) end -= 1;
    else if (end === bytes.length && end > start && bytes[end - 1] === LF) end -= bytes[end - 2] === CR && end - 1 > start ? 2 : 1;
    range.buffer = bytes;
    range.start = start;
    range.end = end;
    return true;
  }

  lineText(line: number): string | undefined {
    const range: GrepByteRange = { buffer: Buffer.alloc(0), start: 0, end: 0 };
    return this.lineBytes(line, range) ? range.buffer.toString("utf8", range.start, range.end) : undefined;
  }

  release(): void {
    this.bytes = undefined;
    this.lineStarts = undefined;
  }
}
