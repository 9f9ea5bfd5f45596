/**
 * Builds a large result text as UTF-8 bytes in one buffer (reused across
 * calls through the bundle's {@link SearchCaches}) and
 * decodes it once: rendering tens of thousands of Grep lines then makes no
 * string per line (no garbage to collect, no rope to flatten), and
 * ripgrep's bytes are copied as they are. The text equals the one joined
 * from the same pieces as strings.
 *
 * (Measured alternatives, on 68,884 lines: one string per line joined made
 * twice the CPU time, mostly garbage collection; decoding runs of ASCII
 * lines through Latin-1 and joining them made more fresh memory than it
 * saved decoding.)
 */

import { SearchCaches } from "./search-caches.js";

/** Bytes kept in front of the text, for a header written last (see {@link GrepTextBuilder.prepend}). */
const HEADER_ROOM = 1024;

/** Whether `text` holds a UTF-16 surrogate code unit (then it may not survive UTF-8: lone surrogates). */
export function hasSurrogate(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdfff) return true;
  }
  return false;
}

/** Whether every surrogate of `text` is part of a pair. */
function isWellFormed(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    if (code >= 0xdc00) return false;
    const next = text.charCodeAt(index + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    index += 1;
  }
  return true;
}

/**
 * A text assembled from strings and UTF-8 byte ranges. Strings that UTF-8
 * cannot carry (lone surrogates, e.g. a line clipped inside a surrogate
 * pair) are kept as strings, so nothing changes in the text.
 *
 * @example
 * const builder = new GrepTextBuilder();
 * builder.writeString("a.ts:");
 * builder.writeNumber(3);
 * builder.writeBytes(Buffer.from(": hit"), 0, 5);
 * builder.prepend("Found 1 matching line\n");
 * builder.finish(); // "Found 1 matching line\na.ts:3: hit"
 */
export class GrepTextBuilder {
  private buffer: Buffer;
  private start = HEADER_ROOM;
  private length = HEADER_ROOM;
  /** Decoded text before the bytes in the buffer (only after a string UTF-8 cannot carry). */
  private parts: string[] | undefined;
  /** Code units in `parts`. */
  private partsChars: number | undefined;

  /**
   * @param caches the bundle's caches: the buffer is taken from them and
   *   given back by {@link finish} (a buffer up to
   *   {@link SearchCaches.KEPT_BYTES}); without, a fresh buffer, not kept
   */
  constructor(private readonly caches?: SearchCaches) {
    this.buffer = caches?.spare ?? Buffer.allocUnsafe(256 * 1024);
    if (caches) caches.spare = undefined;
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(larger, 0, 0, this.length);
    this.buffer = larger;
  }

  /**
   * Makes room for `bytes` more bytes at once: a text known to be large
   * then grows in one step instead of doubling (each doubling copies what
   * was written into fresh memory, whose page faults cost more than the
   * copy).
   */
  expect(bytes: number): void {
    this.reserve(bytes);
  }

  /** Size of the text so far: UTF-8 bytes, which are at least its UTF-16 code units. */
  get size(): number {
    return this.length - this.start + (this.partsChars ?? 0);
  }

  /** How many strings moved out of the byte buffer (see {@link rollback}). */
  get partsCount(): number {
    return this.parts?.length ?? 0;
  }

  /**
   * Drops what was written since {@link size} was `size` and
   * {@link partsCount} was `partsCount`; false (nothing dropped) when text
   * moved out of the byte buffer since.
   */
  rollback(size: number, partsCount: number): boolean {
    if (this.partsCount !== partsCount) return false;
    const length = size - (this.partsChars ?? 0) + this.start;
    if (length > this.length || length < this.start) return false;
    this.length = length;
    return true;
  }

  /** Appends a string. */
  writeString(text: string): void {
    if (text.length === 0) return;
    if (hasSurrogate(text) && !isWellFormed(text)) {
      this.flushToParts();
      this.parts!.push(text);
      this.partsChars! += text.length;
      return;
    }
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, "utf8");
  }

  /** Appends an ASCII string (no check: only for text known to be ASCII). */
  writeAscii(text: string): void {
    this.reserve(text.length);
    const buffer = this.buffer;
    let length = this.length;
    for (let index = 0; index < text.length; index += 1) buffer[length++] = text.charCodeAt(index);
    this.length = length;
  }

  /** Appends a non-negative integer in decimal. */
  writeNumber(value: number): void {
    this.reserve(16);
    const buffer = this.buffer;
    let digits = 1;
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
    let position = this.length + digits;
    this.length = position;
    let rest = value;
    do {
      buffer[--position] = 48 + (rest % 10);
      rest = Math.floor(rest / 10);
    } while (rest > 0);
  }

  /** Appends `source[start, end)`, UTF-8 bytes (invalid sequences decode as U+FFFD, as `toString` would). */
  writeBytes(source: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    // Short ranges (lines, names) copy faster in a loop than through Buffer.copy's native call.
    if (end - start > 32) {
      this.length += source.copy(this.buffer, this.length, start, end);
      return;
    }
    const buffer = this.buffer;
    let length = this.length;
    for (let index = start; index < end; index += 1) buffer[length++] = source[index]!;
    this.length = length;
  }

  /** Puts `text` in front of everything written. */
  prepend(text: string): void {
    const bytes = Buffer.byteLength(text, "utf8");
    if (this.parts || bytes > this.start || hasSurrogate(text)) {
      this.flushToParts();
      this.parts!.unshift(text);
      this.partsChars! += text.length;
      return;
    }
    this.start -= bytes;
    this.buffer.write(text, this.start, "utf8");
  }

  private flushToParts(): void {
    this.parts ??= [];
    this.partsChars ??= 0;
    if (this.length > this.start) {
      const flushed = this.buffer.toString("utf8", this.start, this.length);
      this.parts.push(flushed);
      this.partsChars += flushed.length;
    }
    this.start = this.length = HEADER_ROOM;
  }

  /** The text, one flat string; the builder must not be used afterwards. */
  finish(): string {
    let text: string;
    if (this.parts) {
      this.flushToParts();
      text = this.parts.join("");
    } else text = this.buffer.toString("utf8", this.start, this.length);
    const caches = this.caches;
    if (caches && !caches.isClosed && this.buffer.length <= SearchCaches.KEPT_BYTES && (!caches.spare || caches.spare.length < this.buffer.length))
      caches.spare = this.buffer;
    return text;
  }
}
