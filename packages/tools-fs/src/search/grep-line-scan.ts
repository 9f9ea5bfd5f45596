/**
 * The per-file search steps of the TypeScript Grep engine, shared by the
 * in-process engine and the worker threads (grep-worker-thread.ts imports
 * them). No module state: each thread has its own copy of this module.
 */

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
}

/**
 * A finder for a plain ASCII literal (letters, digits, `_`, `-`, space) in
 * raw bytes, never decoding them; undefined for other literals.
 *
 * A short window of the literal (at most 6 bytes, starting at its rarest
 * byte in source code) is found with `Buffer.indexOf`, which runs at memchr
 * speed for such needles, in every case variant when case is ignored; each
 * hit is then checked against the whole literal byte by byte.
 * Self-contained (the worker embeds it).
 */
export function createLiteralFinder(literalText: string, ignoreCase: boolean): LiteralFinder | undefined {
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
    find(bytes, firstOnly) {
      const found: number[] = [];
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

/**
 * The 1-based numbers of the lines holding a match, for a single-line
 * search whose every match contains the literal found at `positions`
 * (ascending): only those lines are decoded and tested, one by one, the
 * same way the whole-text search reads them (BOM dropped, CRLF as LF).
 */
export function matchingLinesAt(bytes: Buffer, positions: readonly number[], regex: RegExp): number[] {
  const lines: number[] = [];
  const bomLength = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let line = 1;
  let counted = 0; // line feeds before this offset are counted in `line`
  let nextFree = 0;
  for (const position of positions) {
    if (position < nextFree) continue;
    const lineStart = position === 0 ? 0 : bytes.lastIndexOf(10, position - 1) + 1;
    for (let feed = bytes.indexOf(10, counted); feed !== -1 && feed < lineStart; feed = bytes.indexOf(10, feed + 1)) line += 1;
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
 * null for a binary file (a NUL byte). With a `finder` for a literal every
 * match contains, files without it are ruled out before any decoding, and a
 * single-line search decodes only the lines holding it.
 */
export function searchFileBytes(bytes: Buffer, regex: RegExp, multiline: boolean, finder: LiteralFinder | undefined): number[] | null {
  if (finder && !finder.foldsBeyondAscii(bytes)) {
    const positions = finder.find(bytes, multiline);
    if (!positions.length) return [];
    if (bytes.indexOf(0) !== -1) return null;
    if (!multiline) return matchingLinesAt(bytes, positions, regex);
  } else if (bytes.indexOf(0) !== -1) return null;
  return matchingLines(decodeText(bytes), regex, multiline);
}

/**
 * A literal that every match of the regex `pattern` (Rust syntax) contains:
 * the longest run (>= 3) of plain characters (letters, digits, `_`, `-`,
 * space) at the top level, outside groups, classes, escapes and quantified
 * characters. Undefined when there is none or the pattern is not simple
 * enough to be sure (alternation, inline flags other than leading ones,
 * extended mode). Self-contained (the worker embeds it).
 *
 * @example
 * requiredLiteral("function\\s+\\w+\\("); // "function"
 */
export function requiredLiteral(pattern: string): string | undefined {
  let source = pattern;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(source);
  if (inline) {
    if (inline[1]!.includes("x")) return undefined;
    source = source.slice(inline[0].length);
  }
  if (source.includes("|") || source.includes("(?")) return undefined;
  let best = "";
  let run = "";
  const endRun = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  let depth = 0;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === "\\") {
      endRun();
      const next = source[index + 1];
      index += 1;
      if ((next === "p" || next === "P" || next === "x" || next === "u") && source[index + 1] === "{") index = source.indexOf("}", index);
      if (index === -1) return undefined;
      continue;
    }
    if (character === "[") {
      endRun();
      let cursor = index + 1;
      if (source[cursor] === "^") cursor += 1;
      if (source[cursor] === "]") cursor += 1;
      while (cursor < source.length && source[cursor] !== "]") cursor += source[cursor] === "\\" ? 2 : 1;
      if (cursor >= source.length) return undefined;
      index = cursor;
      continue;
    }
    if (character === "{") {
      endRun();
      const close = source.indexOf("}", index);
      if (close === -1) return undefined;
      index = close;
      continue;
    }
    if (character === "(") depth += 1;
    if (character === ")") depth -= 1;
    if (depth === 0 && /[A-Za-z0-9_ -]/.test(character)) {
      const next = source[index + 1];
      if (next === "?" || next === "*" || next === "+" || next === "{")
        endRun(); // optional or repeated: not a fixed part
      else run += character;
      continue;
    }
    endRun();
  }
  endRun();
  return best.length >= 3 ? best : undefined;
}

/**
 * The literal finder of a Grep pattern: for the whole pattern when it is a
 * plain literal, else for a literal every match must contain
 * ({@link requiredLiteral}); undefined when there is neither.
 */
export function searchFinder(pattern: string, ignoreCase: boolean): LiteralFinder | undefined {
  const plain = createLiteralFinder(pattern, ignoreCase);
  if (plain) return plain;
  const literal = requiredLiteral(pattern);
  if (literal === undefined) return undefined;
  return createLiteralFinder(literal, ignoreCase || /^\(\?[a-zA-Z]*i/.test(pattern));
}

/**
 * A file reader for many small files: each file is read into one reused
 * buffer (open, read to the end, close: no stat, no allocation per file).
 * The returned bytes are a view that the next call overwrites; copy what
 * must outlive it. Self-contained (the worker embeds it): `fs` is passed in.
 */
export function createFileReader(fs: Pick<typeof import("node:fs"), "openSync" | "readSync" | "closeSync">): (file: string) => Buffer {
  const INITIAL = 256 * 1024;
  let buffer = Buffer.allocUnsafe(INITIAL);
  return (file) => {
    if (buffer.length > 64 * 1024 * 1024) buffer = Buffer.allocUnsafe(INITIAL); // do not keep a huge file's buffer
    const descriptor = fs.openSync(file, "r");
    try {
      let length = 0;
      for (;;) {
        if (length === buffer.length) {
          const larger = Buffer.allocUnsafe(buffer.length * 2);
          buffer.copy(larger, 0, 0, length);
          buffer = larger;
        }
        const read = fs.readSync(descriptor, buffer, length, buffer.length - length, null);
        if (read === 0) break;
        length += read;
      }
      return buffer.subarray(0, length);
    } finally {
      fs.closeSync(descriptor);
    }
  };
}
