/**
 * Hits of the pure TypeScript engine: the matching line numbers of a file
 * and its text, either decoded already ({@link TextFileHits}) or read again
 * as bytes when a line is shown ({@link FileBytesHits}).
 */
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { createFileReader } from "./grep-line-scan.js";
import type { GrepByteRange, GrepFileHits } from "./grep-result.js";
import { type GrepScanKernel, skipLineFeeds } from "./grep-scan-kernel.js";

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
 * Reads the files whose lines are shown, one at a time, into one reused
 * buffer (the memory of the search's byte scanner when there is one, which
 * then finds line starts 16 bytes per step): rendering every line of
 * thousands of files allocates no buffer and no line index per file. The
 * file loaded last is the only one held: loading another one lets go of it.
 */
export class FileBytesLoader {
  private readonly read: (file: string) => Buffer | null;
  private owner: FileBytesHits | undefined;

  constructor(private readonly kernel?: GrepScanKernel) {
    this.read = createFileReader({ openSync, readSync, closeSync }, kernel);
  }

  /** The bytes of `file` for `owner` (empty when it vanished or turned binary since the search). */
  load(owner: FileBytesHits, file: string): Buffer {
    this.owner = owner;
    try {
      return this.read(file) ?? EMPTY;
    } catch {
      return EMPTY;
    }
  }

  /** Whether the bytes `owner` loaded last are still the ones held. */
  holds(owner: FileBytesHits): boolean {
    return this.owner === owner;
  }

  /** Lets go of `owner`'s bytes. */
  release(owner: FileBytesHits): void {
    if (this.owner === owner) this.owner = undefined;
  }

  /** The offset just past the `count`-th line feed at or after `from`, or -1. */
  skipLines(bytes: Buffer, from: number, count: number): number {
    return skipLineFeeds(bytes, from, count, this.kernel);
  }
}

const EMPTY = Buffer.alloc(0);

/**
 * Hits whose file is read again, as bytes, when its first line is shown
 * (the search decoded only its matching lines), and let go by
 * {@link release} once rendered. Lines are handed to the renderer as byte
 * ranges, so a file is never decoded whole: the text equals what
 * {@link decodeText} gives (a UTF-8 byte order mark dropped, CRLF read as
 * LF, invalid bytes decoded the same way, since they end at a line feed
 * either way; see `decodeText` in grep-line-scan.ts). Lines are found from
 * the last one asked for (the renderer asks in ascending order).
 */
export class FileBytesHits extends LineNumberHits implements GrepFileHits {
  private bytes: Buffer | undefined;
  /** Where the bytes' first line starts (after a byte order mark). */
  private firstStart = 0;
  /** A line found last and where it starts. */
  private cursorLine = 1;
  private cursorStart = 0;

  /**
   * @param loader reads the file when a line is shown; default one of this
   *   hit alone
   */
  constructor(
    path: string,
    lines: number[],
    private readonly directory: string,
    private readonly loader: FileBytesLoader = new FileBytesLoader(),
  ) {
    super(path, lines);
  }

  private load(): Buffer {
    if (!this.bytes || !this.loader.holds(this)) {
      const bytes = this.loader.load(this, path.join(this.directory, this.path));
      this.firstStart = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      this.cursorLine = 1;
      this.cursorStart = this.firstStart;
      this.bytes = bytes;
    }
    return this.bytes;
  }

  lineBytes(line: number, range: GrepByteRange): boolean {
    const bytes = this.load();
    if (line < 1 || bytes.length <= this.firstStart) return false;
    if (line < this.cursorLine) {
      this.cursorLine = 1;
      this.cursorStart = this.firstStart;
    }
    if (line > this.cursorLine) {
      const start = this.loader.skipLines(bytes, this.cursorStart, line - this.cursorLine);
      // A line feed that ends the file starts no line.
      if (start === -1 || start >= bytes.length) return false;
      this.cursorLine = line;
      this.cursorStart = start;
    }
    const start = this.cursorStart;
    const feed = bytes.indexOf(LF, start);
    let end = feed === -1 ? bytes.length : feed;
    // The line feed is not part of the line, nor the CR of a CRLF.
    if (feed !== -1 && end > start && bytes[end - 1] === CR) end -= 1;
    range.buffer = bytes;
    range.start = start;
    range.end = end;
    return true;
  }

  lineText(line: number): string | undefined {
    const range: GrepByteRange = { buffer: EMPTY, start: 0, end: 0 };
    return this.lineBytes(line, range) ? range.buffer.toString("utf8", range.start, range.end) : undefined;
  }

  release(): void {
    this.loader.release(this);
    this.bytes = undefined;
  }
}
