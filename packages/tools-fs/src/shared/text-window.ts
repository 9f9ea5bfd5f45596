import { ContentHasher } from "./content-hash.js";
import { type FileVersion, statIdentity } from "./file-state.js";

/** Read's output cap of a text window, in characters. */
export const READ_MAX_CHARS = 200 * 1024;
/** Files larger than this are not hashed (their version is mtime + size only). */
export const HASH_LIMIT_BYTES = 256 * 1024 * 1024;
/** How many leading bytes are checked for a NUL byte (binary detection). */
export const BINARY_SNIFF_BYTES = 8192;
/**
 * Files up to this size are read to their end by every window: every line
 * counted and the bytes hashed inline (a millisecond or two). A larger file
 * is read only up to its window (see {@link readTextWindow}).
 */
export const COUNT_BUDGET_BYTES = 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** The first read is small: a default page of source lines fits in it. */
const FIRST_CHUNK_BYTES = 64 * 1024;

/** Options of {@link readTextWindow}. */
export interface TextWindowOptions {
  /** 1-based first line. */
  startLine: number;
  /** Maximum number of lines. */
  limit: number;
  /** Cap of the rendered window in characters; default {@link READ_MAX_CHARS}. */
  maxChars?: number;
  signal?: AbortSignal;
  /** The hasher to stream the bytes through (the bundle's, so no WebAssembly instance is made per read); default a fresh one. */
  hasher?: ContentHasher;
  /** The hasher of the window's own bytes ({@link TextWindow.windowHash}); default a fresh one. */
  windowHasher?: ContentHasher;
  /**
   * Read to the end whatever the size: count every line and hash (Write's
   * automatic full read). Without it a file over {@link COUNT_BUDGET_BYTES}
   * whose stat has a ctime and an inode is read only up to its window.
   */
  countAll?: boolean;
  /** Counts the `\n` bytes of a buffer (the bundle's SIMD counter): lines before the window are then skipped a chunk at a time. */
  countLineFeeds?: (bytes: Uint8Array) => number;
}

/**
 * What {@link readTextWindow} reads through: a Node `FileHandle`, or a
 * workspace file read through the Workspace port (the same window, line
 * numbering and hash either way).
 */
export interface TextWindowHandle {
  /** The file's identity now (a workspace file has no ctime or inode). */
  stat(): Promise<{ mtimeMs: number; ctimeMs?: number; ino?: number; size: number }>;
  /** Reads the next bytes into `buffer` at `offset` (sequentially, as `position` null means). */
  read(buffer: Buffer, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
}

/** A window of lines of a text file, read without loading the file whole. */
export interface TextWindow {
  /** Lines of the window without their line endings. */
  lines: string[];
  startLine: number;
  numLines: number;
  /**
   * Lines in the file: `\n` count, plus one when the last line has no `\n`;
   * undefined when the window stopped before the end of a large file (the
   * lines after it were not counted).
   */
  totalLines: number | undefined;
  /** More lines remain after the window. */
  truncated: boolean;
  /** True when the window stopped early because of the character cap. */
  cappedBySize: boolean;
  /** True when a single line was longer than the cap and was cut. */
  lineCut: boolean;
  /** True when a NUL byte was found in the first bytes: the file is binary and no lines were read. */
  binary: boolean;
  /**
   * The identity from the stat taken before the first byte was read, and
   * the hash of every byte when the file was read to its end (up to
   * {@link HASH_LIMIT_BYTES}); `contentHash` is "" otherwise.
   */
  version: FileVersion;
  /** A file over {@link COUNT_BUDGET_BYTES} read without `countAll` and hashable: its hash is left to the caller (for the same identity only). */
  hashDeferred: boolean;
  /**
   * FNV-1a 64 of the bytes of the window's lines as this read got them
   * (including a line cut or left out at the cap): what a re-Read compares
   * before it answers "unchanged", whatever the stat says.
   */
  windowHash: string;
  /**
   * With `hashDeferred`, when the window ended within the first
   * {@link COUNT_BUDGET_BYTES}: the FNV-1a 64 state (16 hex characters)
   * after the file's first `bytes` bytes, hashed as this read got them, so
   * that a later hash of the rest continues from what the model saw.
   */
  hashPrefix?: { bytes: number; hash: string };
}

/** Renders one numbered line, `cat -n` style. */
export function numberLine(lineNumber: number, text: string): string {
  return `${String(lineNumber).padStart(6, " ")}\t${text}`;
}

/** True when the bytes look binary: a NUL byte in the first {@link BINARY_SNIFF_BYTES}. */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let index = 0; index < end; index += 1) if (bytes[index] === 0) return true;
  return false;
}

/** Collects the lines of one window as chunks stream by. */
class WindowCollector {
  readonly lines: string[] = [];
  /** Line currently being scanned (1-based). */
  lineNumber = 1;
  collecting = true;
  cappedBySize = false;
  lineCut = false;
  private shownChars = 0;
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private readonly windowEnd: number; // exclusive

  private readonly startLine: number;
  private readonly maxChars: number;
  private readonly countLineFeeds: ((bytes: Uint8Array) => number) | undefined;
  readonly windowHasher: ContentHasher;

  constructor(options: TextWindowOptions) {
    this.windowHasher = options.windowHasher ?? new ContentHasher();
    this.startLine = options.startLine;
    this.windowEnd = options.startLine + options.limit;
    this.maxChars = options.maxChars ?? READ_MAX_CHARS;
    this.countLineFeeds = options.countLineFeeds;
  }

  /** Every line of the window was taken, or the window stopped at the cap. */
  get done(): boolean {
    return !this.collecting || this.lineNumber >= this.windowEnd;
  }

  /** Scans `chunk`; returns where scanning stopped (the chunk's length, or the byte after the window's last line). */
  scan(chunk: Buffer): number {
    const count = chunk.length;
    let position = 0;
    if (this.countLineFeeds && this.lineNumber < this.startLine) {
      // A chunk that ends before the window's first line is counted, not split line by line.
      const feeds = this.countLineFeeds(chunk);
      if (this.lineNumber + feeds < this.startLine) {
        this.lineNumber += feeds;
        return count;
      }
    }
    while (position < count) {
      if (this.done) {
        this.collecting = false;
        return position;
      }
      const newline = chunk.indexOf(10, position);
      if (this.lineNumber < this.startLine) {
        if (newline === -1) return count;
        this.lineNumber += 1;
        position = newline + 1;
        continue;
      }
      const end = newline === -1 ? count : newline + 1;
      this.windowHasher.update(chunk.subarray(position, end));
      if (this.pieceBytes < this.maxChars * 4) {
        const slice = Buffer.from(chunk.subarray(position, end));
        this.pieces.push(slice);
        this.pieceBytes += slice.length;
      }
      if (newline === -1) return count;
      if (!this.finishLine()) this.collecting = false;
      this.lineNumber += 1;
      position = end;
    }
    if (this.done) this.collecting = false;
    return position;
  }

  /** Ends a last line without a trailing newline. */
  finish(): void {
    if (this.pieces.length > 0 && this.collecting && !this.finishLine()) this.collecting = false;
  }

  /** Takes the pending pieces as one line; false when collection must stop (the cap). */
  private finishLine(): boolean {
    const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.pieceBytes);
    this.pieces = [];
    this.pieceBytes = 0;
    let text = bytes.toString("utf8");
    if (this.lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    else if (text.endsWith("\r")) text = text.slice(0, -1);
    const rendered = 8 + text.length;
    if (this.shownChars + rendered > this.maxChars) {
      this.cappedBySize = true;
      if (this.lines.length === 0) {
        this.lines.push(text.slice(0, Math.max(0, this.maxChars - 8)));
        this.lineCut = true;
      }
      return false;
    }
    this.lines.push(text);
    this.shownChars += rendered;
    return true;
  }
}

/** Counts the `\n` bytes of `chunk` from `from`. */
function countNewlines(chunk: Buffer, from: number): number {
  let newlines = 0;
  for (let at = chunk.indexOf(10, from); at !== -1; at = chunk.indexOf(10, at + 1)) newlines += 1;
  return newlines;
}

/**
 * Streams a file for a window of lines. A file up to
 * {@link COUNT_BUDGET_BYTES} (or any file with `countAll`) is read to its
 * end: every line counted and the bytes hashed (FNV-1a 64, up to
 * {@link HASH_LIMIT_BYTES}). A larger local file is read only up to the
 * window's end and one byte past it: time proportional to the window, not
 * the file; the hash is left to the caller (`hashDeferred`). A handle whose
 * stat has no ctime or inode (a workspace file: its identity alone proves
 * nothing) is still read whole for its hash. Either way a larger file's
 * `totalLines` is undefined unless the window reached its end, so the
 * answer is the same on every backend. Memory stays bounded by the chunk
 * size plus the window. The caller opens the file (as a regular file, see
 * `openRegularFile`) and closes it.
 */
export async function readTextWindow(handle: TextWindowHandle, options: TextWindowOptions): Promise<TextWindow> {
  const stat = await handle.stat();
  const hashing = stat.size <= HASH_LIMIT_BYTES;
  const countAll = options.countAll === true || stat.size <= COUNT_BUDGET_BYTES;
  // A handle without ctime or inode (a workspace file) is read whole for its hash, but shows the same total as the local disk would.
  const readAll = countAll || stat.ctimeMs === undefined || stat.ino === undefined;
  // Only a file read whole is hashed here; a larger local file's hash is left to the caller, even when the window reaches its end.
  const hashInline = hashing && readAll;
  const hasher = options.hasher ?? new ContentHasher();
  // A larger file's bytes up to the window's end are hashed here while they stay within the budget (see hashPrefix).
  let prefixOpen = hashing && !readAll;
  let prefixBytes = 0;
  const window = new WindowCollector(options);
  let newlinesAfter = 0; // counted past the window when not hashing inline
  let lastByte = -1;
  let bytesRead = 0;
  let atEnd = false;
  let moreAfterWindow = false;
  let buffer = Buffer.allocUnsafe(Math.max(1, Math.min(readAll ? CHUNK_BYTES : FIRST_CHUNK_BYTES, stat.size || 1)));
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const { bytesRead: count } = await handle.read(buffer, 0, buffer.length, null);
    if (count === 0) {
      atEnd = true;
      break;
    }
    const chunk = buffer.subarray(0, count);
    if (bytesRead === 0 && looksBinary(chunk)) {
      return { ...emptyWindow(options.startLine), binary: true, totalLines: 0, version: { ...statIdentity(stat), contentHash: "" } };
    }
    bytesRead += count;
    if (hashInline) hasher.update(chunk);
    lastByte = chunk[count - 1]!;
    const stopped = window.collecting ? window.scan(chunk) : 0;
    if (prefixOpen) {
      const upto = window.collecting ? count : stopped;
      prefixBytes += upto;
      if (prefixBytes > COUNT_BUDGET_BYTES) prefixOpen = false;
      else hasher.update(chunk.subarray(0, upto));
      if (!window.collecting) prefixOpen = false;
    }
    if (!window.collecting) {
      if (stopped < count) moreAfterWindow = true;
      if (!readAll) {
        if (stopped < count) break; // a byte after the window: more lines follow
      } else if (!hashInline) newlinesAfter += countNewlines(chunk, stopped);
    }
    if (buffer.length < CHUNK_BYTES && stat.size > bytesRead) buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, stat.size - bytesRead));
  }
  if (atEnd && bytesRead > 0 && lastByte !== 10) window.finish();
  const numLines = window.lines.length;
  const lastShown = options.startLine + numLines - 1;
  let totalLines: number | undefined;
  if (atEnd && (countAll || !moreAfterWindow)) {
    if (bytesRead === 0) totalLines = 0;
    else if (hashInline) totalLines = hasher.lineCount();
    else totalLines = window.lineNumber - 1 + newlinesAfter + (lastByte === 10 ? 0 : 1);
  }
  return {
    lines: window.lines,
    startLine: options.startLine,
    numLines,
    totalLines,
    truncated: totalLines === undefined || lastShown < totalLines || window.lineCut,
    cappedBySize: window.cappedBySize,
    lineCut: window.lineCut,
    binary: false,
    version: { ...statIdentity(stat), contentHash: hashInline ? hasher.digest() : "" },
    hashDeferred: hashing && !hashInline,
    windowHash: window.windowHasher.digest(),
    ...(hashing && !hashInline && prefixBytes <= COUNT_BUDGET_BYTES ? { hashPrefix: { bytes: prefixBytes, hash: hasher.digest() } } : {}),
  };
}

function emptyWindow(startLine: number) {
  return { lines: [], startLine, numLines: 0, truncated: false, cappedBySize: false, lineCut: false, hashDeferred: false, windowHash: "" };
}
