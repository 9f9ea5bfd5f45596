/**
 * The per-file search steps of the TypeScript Grep engine, shared by the
 * in-process engine and the worker threads (grep-worker-thread.ts imports
 * them). No module state: each thread has its own copy of this module.
 */
import { requiredAlternatives, requiredLiteral } from "./grep-required-literal.js";
import { type GrepScanKernel, SCAN_DATA_MAX, SCAN_NEEDLE_MAX, type ScanNeedle, countLineFeeds } from "./grep-scan-kernel.js";

/** The matching lines of one text (CRLF already normalised), 1-based and ascending. */
export function matchingLines(text: string, regex: RegExp, multiline: boolean): number[] {
  const lines: number[] = [];
  regex.lastIndex = 0;
  let scanned = 0; // offset up to which newlines have been counted
  let line = 1;
  const lineAt = (offset: number) => {
    for (let index = text.indexOf("\n", scanned); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
    scanned = offset;
    return line;
  };
  for (;;) {
    const match = regex.exec(text);
    if (!match) break;
    const start = match.index;
    if (start === text.length && start > 0 && text.charCodeAt(start - 1) === 10) break; // past the last line
    const value = match[0];
    const startLine = lineAt(start);
    if (!multiline && value.includes("\n")) return matchingLinesByLine(text, regex);
    const endLine = multiline && value.length > 0 ? startLine + countNewlines(value.slice(0, -1)) : startLine;
    for (let current = startLine; current <= endLine; current += 1) if (lines[lines.length - 1] !== current) lines.push(current);
    // Continue after the last matched line: only matching lines are reported.
    const nextLineStart = text.indexOf("\n", multiline && value.length > 0 ? start + value.length - 1 : start);
    if (nextLineStart === -1 || nextLineStart + 1 >= text.length) break;
    if (multiline && value.length > 0 && value.endsWith("\n")) {
      regex.lastIndex = start + value.length;
    } else {
      regex.lastIndex = nextLineStart + 1;
    }
    lineAt(regex.lastIndex);
  }
  return lines;
}

export function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

export function matchingLinesByLine(text: string, regex: RegExp): number[] {
  const single = new RegExp(regex.source, regex.flags.replace("g", ""));
  const lines: number[] = [];
  const all = text.split("\n");
  if (all.length && all[all.length - 1] === "") all.pop();
  for (let index = 0; index < all.length; index += 1) if (single.test(all[index]!)) lines.push(index + 1);
  return lines;
}

/** A text file's bytes as searched: UTF-8, without a BOM, CRLF as LF. */
export function decodeText(bytes: Buffer): string {
  let text = bytes.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\r\n")) text = text.replace(/\r\n/g, "\n");
  return text;
}

/** Finds a plain ASCII literal in raw bytes (see {@link createLiteralFinder}). */
export interface LiteralFinder {
  /** Ascending start offsets of the literal in `bytes`: all of them, or only the first when `first`. */
  find(bytes: Buffer, first: boolean): number[];
  /**
   * Whether `bytes` hold characters that fold with the literal's letters
   * beyond ASCII (U+212A Kelvin sign for `k`, U+017F long s for `s`, as in
   * ripgrep and JavaScript's `iu` regexes): then the finder cannot decide.
   */
  foldsBeyondAscii(bytes: Buffer): boolean;
  /** The literal is the whole pattern: every occurrence is a match, its line a matching line (no regex to run). */
  readonly exact: boolean;
  /** The scanner that finds it in place in the bytes it holds (and counts their lines); undefined: `Buffer.indexOf`. */
  readonly kernel: GrepScanKernel | undefined;
}

/** Options of {@link createLiteralFinder}. */
export interface LiteralFinderOptions {
  /** The literal is the whole pattern (see {@link LiteralFinder.exact}); default false. */
  exact?: boolean;
  /** The thread's byte scanner, used for bytes read into its memory. */
  kernel?: GrepScanKernel;
}

/**
 * A finder for a plain ASCII literal (letters, digits, `_`, `-`, space) in
 * raw bytes, never decoding them; undefined for other literals.
 *
 * Bytes read into `options.kernel`'s memory are scanned there in one pass,
 * 16 starts at a time on the literal's two rarest bytes, both cases of a
 * letter at once. Other bytes: a short window of the literal (at most 6
 * bytes, starting at its rarest byte in source code) is found with
 * `Buffer.indexOf`, which runs at memchr speed for such needles, in every
 * case variant when case is ignored; each hit is then checked against the
 * whole literal byte by byte.
 */
export function createLiteralFinder(literalText: string, ignoreCase: boolean, options: LiteralFinderOptions = {}): LiteralFinder | undefined {
  if (!/^[A-Za-z0-9_ -]+$/.test(literalText)) return undefined;
  // ASCII bytes of source code, most frequent first (measured on the bench corpus).
  const FREQUENT_FIRST = " eatorsnicld,pum.h;gfb()y\":/=v}{kx*w'z_q`\\->j0<[]12?$|34#65@8&97!+^%~";
  const fold = ignoreCase && /[A-Za-z]/.test(literalText);
  const literal = fold ? literalText.toLowerCase() : literalText;
  const needle = Buffer.from(literal, "latin1");
  const length = needle.length;
  // Per byte of the literal: 0x20 where a letter may come in either case.
  const caseBits = Uint8Array.from(needle, (byte) => (fold && byte >= 97 && byte <= 122 ? 0x20 : 0));
  const rank = (byte: number) => {
    const index = FREQUENT_FIRST.indexOf(String.fromCharCode(byte >= 65 && byte <= 90 ? byte | 0x20 : byte));
    return index === -1 ? -1 : FREQUENT_FIRST.length - index; // lower = rarer; unknown bytes are rarest
  };
  const kernel = length <= SCAN_NEEDLE_MAX ? options.kernel : undefined;
  const scanNeedle = kernel && scanNeedleOf(needle, caseBits, rank);
  const windowLength = Math.min(length, fold ? 3 : 6);
  let start = 0;
  for (let offset = 1; offset + windowLength <= length; offset += 1) if (rank(needle[offset]!) < rank(needle[start]!)) start = offset;
  let windows: Buffer[] = [needle.subarray(start, start + windowLength)];
  if (fold) {
    for (let index = 0; index < windowLength; index += 1) {
      if (!caseBits[start + index]) continue;
      windows = windows.flatMap((window) => {
        const upper = Buffer.from(window);
        upper[index] = upper[index]! & ~0x20;
        return [window, upper];
      });
    }
  }
  const foldable = fold && /[ks]/.test(literal);
  const KELVIN = Buffer.from([0xe2, 0x84, 0xaa]);
  const LONG_S = Buffer.from([0xc5, 0xbf]);
  const verify = (bytes: Buffer, first: number) => {
    if (first < 0 || first + length > bytes.length) return false;
    let index = 0;
    while (index < length && (bytes[first + index]! | caseBits[index]!) === needle[index]) index += 1;
    return index === length;
  };
  return {
    exact: options.exact ?? false,
    kernel: options.kernel,
    find(bytes, firstOnly) {
      const found: number[] = [];
      if (scanNeedle && kernel?.holds(bytes)) {
        for (let hit = kernel.find(bytes, 0, scanNeedle); hit !== -1; hit = kernel.find(bytes, hit + 1, scanNeedle)) {
          found.push(hit);
          if (firstOnly) break;
        }
        return found;
      }
      for (const window of windows) {
        for (let hit = bytes.indexOf(window); hit !== -1; hit = bytes.indexOf(window, hit + 1)) {
          if (!verify(bytes, hit - start)) continue;
          if (firstOnly) {
            if (!found.length || hit - start < found[0]!) found[0] = hit - start;
            break;
          }
          found.push(hit - start);
        }
      }
      if (windows.length > 1 && found.length > 1) found.sort((a, b) => a - b);
      return found;
    },
    foldsBeyondAscii(bytes) {
      return foldable && (bytes.indexOf(KELVIN) !== -1 || bytes.indexOf(LONG_S) !== -1);
    },
  };
}

/** The needle as the scanner takes it: its two rarest bytes by `rank` (lower is rarer), the first one first. */
function scanNeedleOf(needle: Buffer, mask: Uint8Array, rank: (byte: number) => number): ScanNeedle {
  let first = 0;
  for (let index = 1; index < needle.length; index += 1) if (rank(needle[index]!) < rank(needle[first]!)) first = index;
  let second = first === 0 ? needle.length - 1 : 0;
  for (let index = 0; index < needle.length; index += 1) if (index !== first && rank(needle[index]!) < rank(needle[second]!)) second = index;
  return { bytes: needle, mask, first, second };
}

/**
 * The 1-based numbers of the lines holding the ascending byte offsets
 * `positions`, each line once: for a literal that is the whole pattern,
 * the matching lines.
 */
export function linesOfPositions(bytes: Buffer, positions: readonly number[], kernel: GrepScanKernel | undefined): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0; // line feeds before this offset are counted in `line`
  for (const position of positions) {
    if (position < counted) continue; // on the line just reported
    line += countLineFeeds(bytes, counted, position, kernel);
    lines.push(line);
    const feed = bytes.indexOf(10, position);
    if (feed === -1) break;
    counted = feed + 1;
    line += 1;
  }
  return lines;
}

/**
 * The 1-based numbers of the lines holding a match, for a single-line
 * search whose every match contains the literal found at `positions`
 * (ascending): only those lines are decoded and tested, one by one, the
 * same way the whole-text search reads them (BOM dropped, CRLF as LF).
 */
export function matchingLinesAt(bytes: Buffer, positions: readonly number[], regex: RegExp, kernel?: GrepScanKernel): number[] {
  const lines: number[] = [];
  const bomLength = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 1;
  let counted = 0; // line feeds before this offset are counted in `line`
  let nextFree = 0;
  for (const position of positions) {
    if (position < nextFree) continue;
    const lineStart = position === 0 ? 0 : bytes.lastIndexOf(10, position - 1) + 1;
    line += countLineFeeds(bytes, counted, lineStart, kernel);
    counted = lineStart;
    const feed = bytes.indexOf(10, position);
    const lineEnd = feed === -1 ? bytes.length : feed;
    const contentEnd = feed !== -1 && lineEnd > lineStart && bytes[lineEnd - 1] === 13 ? lineEnd - 1 : lineEnd;
    const text = bytes.toString("utf8", lineStart === 0 ? bomLength : lineStart, contentEnd);
    regex.lastIndex = 0;
    if (regex.test(text)) lines.push(line);
    nextFree = lineEnd + 1;
  }
  return lines;
}

/**
 * Searches one file's bytes: its matching lines (1-based, ascending), or
 * null for a binary file (a NUL byte; `bytes` null: found binary while
 * reading). With a `finder` for a literal every match contains, files
 * without it are ruled out before any decoding, and a single-line search
 * decodes only the lines holding it; a literal that is the whole pattern
 * is not decoded at all.
 */
export function searchFileBytes(bytes: Buffer | null, regex: RegExp, multiline: boolean, finder: LiteralFinder | undefined): number[] | null {
  if (!bytes) return null;
  if (finder && !finder.foldsBeyondAscii(bytes)) {
    // A literal that is the whole pattern never spans lines: its lines are the matching lines, multiline or not.
    const positions = finder.find(bytes, multiline && !finder.exact);
    if (!positions.length) return [];
    if (bytes.indexOf(0) !== -1) return null;
    if (finder.exact) return linesOfPositions(bytes, positions, finder.kernel);
    if (!multiline) return matchingLinesAt(bytes, positions, regex, finder.kernel);
  } else if (bytes.indexOf(0) !== -1) return null;
  return matchingLines(decodeText(bytes), regex, multiline);
}

/**
 * The literal finder of a Grep pattern: for the whole pattern when it is a
 * plain literal, else for a literal every match must contain
 * ({@link requiredLiteral}), else for alternatives one of which every
 * match contains ({@link requiredAlternatives}); undefined when there is
 * none of these.
 */
export function searchFinder(pattern: string, ignoreCase: boolean, kernel?: GrepScanKernel): LiteralFinder | undefined {
  const plain = createLiteralFinder(pattern, ignoreCase, { exact: true, kernel });
  if (plain) return plain;
  const fold = ignoreCase || /^\(\?[a-zA-Z]*i/.test(pattern);
  const literal = requiredLiteral(pattern);
  if (literal !== undefined) return createLiteralFinder(literal, fold, { kernel });
  const alternatives = requiredAlternatives(pattern)?.map((alternative) => createLiteralFinder(alternative, fold, { kernel }));
  if (!alternatives || alternatives.some((finder) => !finder)) return undefined;
  return anyOf(alternatives as LiteralFinder[], kernel);
}

/** A finder of whichever of `finders`' literals comes first: their positions merged. */
function anyOf(finders: readonly LiteralFinder[], kernel: GrepScanKernel | undefined): LiteralFinder {
  return {
    exact: false,
    kernel,
    find(bytes, first) {
      let merged: number[] = [];
      for (const finder of finders) {
        const found = finder.find(bytes, first);
        if (found.length) merged = merged.length ? merged.concat(found) : found;
      }
      if (merged.length > 1) merged.sort((a, b) => a - b);
      return first ? merged.slice(0, 1) : merged;
    },
    foldsBeyondAscii: (bytes) => finders.some((finder) => finder.foldsBeyondAscii(bytes)),
  };
}

/**
 * A file reader for many small files: each file is read into one reused
 * buffer (open, read to the end, close: no stat, no allocation per file;
 * a read that returns fewer bytes than asked, not a multiple of 4 KiB,
 * ends the file, as it does for a regular file, with no read of 0 bytes
 * after it; a read split at a multiple of 4 KiB, e.g. by a network or
 * FUSE file system, is followed by another),
 * in `kernel`'s memory when given (where its scanner finds literals in
 * place). The returned bytes are a view that the next call overwrites (or
 * detaches); copy what must outlive it. A file whose first 256 KiB hold a
 * NUL byte is binary: null, and the rest is not read (ripgrep skips it the
 * same way). `fs` is passed in.
 */
export function createFileReader(
  fs: Pick<typeof import("node:fs"), "openSync" | "readSync" | "closeSync">,
  kernel?: GrepScanKernel,
): (file: string) => Buffer | null {
  const INITIAL = 256 * 1024;
  const fresh = () => (kernel ? kernel.data(INITIAL) : Buffer.allocUnsafe(INITIAL));
  let buffer = fresh();
  const grow = (length: number) => {
    if (kernel?.holds(buffer) && length * 2 <= SCAN_DATA_MAX) return kernel.data(length * 2); // the memory keeps what was read
    const larger = Buffer.allocUnsafe(length * 2);
    buffer.copy(larger, 0, 0, length);
    return larger;
  };
  return (file) => {
    // Do not keep a huge file's buffer; the kernel's view may have been detached by its growth.
    if (buffer.length > SCAN_DATA_MAX || (kernel && !kernel.holds(buffer))) buffer = fresh();
    const descriptor = fs.openSync(file, "r");
    try {
      let length = 0;
      for (;;) {
        if (length === buffer.length) buffer = grow(length);
        // The first read is of one chunk, whatever the buffer's size: the chunk looked at for a NUL byte.
        const request = length === 0 ? Math.min(INITIAL, buffer.length) : buffer.length - length;
        const read = fs.readSync(descriptor, buffer, length, request, null);
        if (read === 0) break;
        if (length === 0 && buffer.subarray(0, read).indexOf(0) !== -1) return null;
        length += read;
        // A short read ended the file: no read of 0 bytes to confirm it (a fourth system call per file).
        // Only one that is not a multiple of 4 KiB: file systems that split reads do so at such sizes.
        if (read < request && read % 4096 !== 0) break;
      }
      return buffer.subarray(0, length);
    } finally {
      fs.closeSync(descriptor);
    }
  };
}
