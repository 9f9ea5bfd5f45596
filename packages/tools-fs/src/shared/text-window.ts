import { ContentHasher } from "./content-hash.js";
import { type FileVersion, statIdentity } from "./file-state.js";

/** Read's output cap of a text window, in characters. */
export const READ_MAX_CHARS = 200 * 1024;
/** Files larger than this are not hashed (their version is mtime + size only). */
export const HASH_LIMIT_BYTES = 256 * 1024 * 1024;
/** How many leading bytes are checked for a NUL byte (binary detection). */
export const BINARY_SNIFF_BYTES = 8192;
const CHUNK_BYTES = 1024 * 1024;

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
  /** Lines in the file: `\n` count, plus one when the last line has no `\n`. */
  totalLines: number;
  /** More lines remain after the window. */
  truncated: boolean;
  /** True when the window stopped early because of the character cap. */
  cappedBySize: boolean;
  /** True when a single line was longer than the cap and was cut. */
  lineCut: boolean;
  /** True when a NUL byte was found in the first bytes: the file is binary and no lines were read. */
  binary: boolean;
  version: FileVersion;
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

/**
 * Streams a file once: finds the requested window of lines, counts every
 * line and hashes the bytes (FNV-1a 64, up to {@link HASH_LIMIT_BYTES}).
 * Memory stays bounded by the chunk size plus the window. The caller opens
 * the file (as a regular file, see `openRegularFile`) and closes it.
 */
export async function readTextWindow(handle: TextWindowHandle, options: TextWindowOptions): Promise<TextWindow> {
  const maxChars = options.maxChars ?? READ_MAX_CHARS;
  const stat = await handle.stat();
  const hashing = stat.size <= HASH_LIMIT_BYTES;
  const hasher = options.hasher ?? new ContentHasher();
  const windowEnd = options.startLine + options.limit; // exclusive
  const lines: string[] = [];
  let shownChars = 0;
  let collecting = true;
  let cappedBySize = false;
  let lineCut = false;
  let lineNumber = 1; // line currently being scanned
  let pieces: Buffer[] = [];
  let pieceBytes = 0;
  let lastByte = -1;
  let bytesRead = 0;
  let first = true;
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(CHUNK_BYTES, stat.size || 1)));

  const finishLine = (): boolean => {
    // returns false when collection must stop
    let bytes = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, pieceBytes);
    pieces = [];
    pieceBytes = 0;
    let text = bytes.toString("utf8");
    if (lineNumber === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.endsWith("\n")) text = text.slice(0, text.endsWith("\r\n") ? -2 : -1);
    else if (text.endsWith("\r")) text = text.slice(0, -1);
    const rendered = 8 + text.length;
    if (shownChars + rendered > maxChars) {
      cappedBySize = true;
      if (lines.length === 0) {
        lines.push(text.slice(0, Math.max(0, maxChars - 8)));
        lineCut = true;
      }
      return false;
    }
    lines.push(text);
    shownChars += rendered;
    bytes = Buffer.alloc(0);
    return true;
  };

  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const { bytesRead: count } = await handle.read(buffer, 0, buffer.length, null);
    if (count === 0) break;
    const chunk = buffer.subarray(0, count);
    if (first) {
      first = false;
      if (looksBinary(chunk)) {
        return {
          lines: [],
          startLine: options.startLine,
          numLines: 0,
          totalLines: 0,
          truncated: false,
          cappedBySize: false,
          lineCut: false,
          binary: true,
          version: { ...statIdentity(stat), contentHash: "" },
        };
      }
    }
    bytesRead += count;
    if (hashing) hasher.update(chunk);
    lastByte = chunk[count - 1]!;
    let position = 0;
    while (position < count) {
      const inWindow = collecting && lineNumber >= options.startLine && lineNumber < windowEnd;
      const newline = chunk.indexOf(10, position);
      if (!inWindow) {
        if (newline === -1) break;
        if (collecting && lineNumber >= windowEnd) collecting = false;
        lineNumber += 1;
        position = newline + 1;
        continue;
      }
      const end = newline === -1 ? count : newline + 1;
      if (pieceBytes < maxChars * 4) {
        const slice = Buffer.from(chunk.subarray(position, end));
        pieces.push(slice);
        pieceBytes += slice.length;
      }
      if (newline === -1) break;
      if (!finishLine()) collecting = false;
      lineNumber += 1;
      position = end;
    }
  }
  // A last line without a trailing newline.
  if (bytesRead > 0 && lastByte !== 10 && pieces.length > 0 && collecting) {
    if (!finishLine()) collecting = false;
  }
  const totalLines = bytesRead === 0 ? 0 : lastByte === 10 ? lineNumber - 1 : lineNumber;
  const numLines = lines.length;
  const lastShown = options.startLine + numLines - 1;
  return {
    lines,
    startLine: options.startLine,
    numLines,
    totalLines,
    truncated: lastShown < totalLines || lineCut,
    cappedBySize,
    lineCut,
    binary: false,
    version: { ...statIdentity(stat), contentHash: hashing ? hasher.digest() : "" },
  };
}
