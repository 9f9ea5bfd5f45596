/**
 * A file's lines over its bytes (a latin1 byte string: one character per
 * byte, so invalid UTF-8 survives), and the normalised views of them each
 * pass of the hunk locator compares. Views and their line indexes are built
 * once per applied file and shared by its hunks.
 */
import { trimBoth, trimEnd } from "../edit/line-match.js";
import { normalisePunctuation } from "./unicode-punctuation.js";

const BOM = "\xEF\xBB\xBF";

/** The lines of a file's bytes. */
export interface FileLines {
  /** The whole content as a latin1 byte string. */
  readonly text: string;
  /** 3 when the content starts with a UTF-8 BOM (never part of line 0), else 0. */
  readonly bomLength: number;
  /** Offset of each line's first byte (line 0: after the BOM). */
  readonly starts: readonly number[];
  /** Offset just past each line's LF (its end, for the last line without one). */
  readonly ends: readonly number[];
  /** The content ends with a line feed, or holds no line at all. */
  readonly finalNewline: boolean;
}

/** Splits `text` into lines; a final LF ends the last line (it does not start an empty one). */
export function splitFileLines(text: string): FileLines {
  const bomLength = text.startsWith(BOM) ? BOM.length : 0;
  const starts: number[] = [];
  const ends: number[] = [];
  let from = bomLength;
  while (from < text.length) {
    const newline = text.indexOf("\n", from);
    const end = newline === -1 ? text.length : newline + 1;
    starts.push(from);
    ends.push(end);
    from = end;
  }
  return { text, bomLength, starts, ends, finalNewline: ends.length === 0 || text.charCodeAt(text.length - 1) === 10 };
}

/** Line `line` with its terminator (CRLF, LF or none). */
export function rawLine(lines: FileLines, line: number): string {
  return lines.text.slice(lines.starts[line], lines.ends[line]);
}

/** Line `line` without its LF (a CR before the LF kept): what the exact pass compares. */
export function lineWithoutLf(lines: FileLines, line: number): string {
  const end = lines.ends[line]!;
  const stop = end > lines.starts[line]! && lines.text.charCodeAt(end - 1) === 10 ? end - 1 : end;
  return lines.text.slice(lines.starts[line], stop);
}

/** Line `line` without its line terminator. */
export function lineContent(lines: FileLines, line: number): string {
  return stripCr(lineWithoutLf(lines, line));
}

/** The passes that compare lines (the looser strategies reuse the loosest). */
export type ComparePass = "exact" | "line-endings" | "trailing-whitespace" | "indentation" | "unicode-punctuation";

/** The comparing passes, strictest first. */
export const COMPARE_PASSES: readonly ComparePass[] = ["exact", "line-endings", "trailing-whitespace", "indentation", "unicode-punctuation"];

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

/** How `pass` normalises a line (file or patch side, without its LF). */
export function normaliserOf(pass: ComparePass): (line: string) => string {
  switch (pass) {
    case "exact":
      return (line) => line;
    case "line-endings":
      return stripCr;
    case "trailing-whitespace":
      return (line) => trimEnd(stripCr(line));
    case "indentation":
      return (line) => trimBoth(stripCr(line));
    case "unicode-punctuation":
      return (line) => trimBoth(normalisePunctuation(stripCr(line)));
  }
}

/** The normalised views of a file's lines, computed for the lines asked about. */
export interface LineViews {
  readonly lines: FileLines;
  /** Number of lines. */
  readonly count: number;
  /** Whether the file holds a CR byte. */
  readonly hasCr: boolean;
  /** Line `line` normalised by `pass`. */
  lineView(pass: ComparePass, line: number): string;
  /** Ascending lines at or after `from` whose `pass` view is `text` (at most `limit`). */
  find(pass: ComparePass, text: string, from: number, limit?: number): number[];
  /** Ascending lines whose `pass` view is `text` (an index of the whole file, built on first use: for the closest-place search of a refusal). */
  occurrences(pass: ComparePass, text: string): readonly number[];
}

/** The longest run of ASCII letters, digits and `_` in `text`: the passes never change these bytes. */
function wordProbe(text: string): string {
  let best = "";
  for (const match of text.matchAll(/[A-Za-z0-9_]+/g)) if (match[0].length > best.length) best = match[0];
  return best;
}

/**
 * Creates the views of `lines` (nothing is computed until asked). Lines are
 * found by `indexOf` over the whole text, of the wanted text itself (every
 * pass but unicode-punctuation only drops bytes around or after it) or of
 * its longest word (unicode-punctuation maps punctuation and spaces only), and
 * each hit's line is normalised and compared: a fuzzy pass costs one scan of
 * the text, not a normalised copy of every line.
 */
export function createLineViews(lines: FileLines): LineViews {
  const { text, starts, ends } = lines;
  const count = starts.length;
  const hasCr = text.includes("\r");
  const cache = new Map<ComparePass, Array<string | undefined>>();
  const indexes = new Map<ComparePass, Map<string, number[]>>();
  const lineView = (pass: ComparePass, line: number): string => {
    let views = cache.get(pass);
    if (!views) cache.set(pass, (views = new Array<string | undefined>(count)));
    return (views[line] ??= normaliserOf(pass)(lineWithoutLf(lines, line)));
  };
  const lineOf = (offset: number): number => {
    let low = 0;
    let high = count - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const find = (pass: ComparePass, wanted: string, from: number, limit = Number.POSITIVE_INFINITY): number[] => {
    const found: number[] = [];
    if (from >= count) return found;
    const probe = pass === "unicode-punctuation" ? wordProbe(wanted) : wanted;
    if (probe === "") {
      for (let line = from; line < count && found.length < limit; line += 1) if (lineView(pass, line) === wanted) found.push(line);
      return found;
    }
    let position = starts[from]!;
    while (found.length < limit) {
      const hit = text.indexOf(probe, position);
      if (hit === -1) break;
      const line = lineOf(hit);
      if (hit + probe.length <= ends[line]! && lineView(pass, line) === wanted) found.push(line);
      position = ends[line]!;
    }
    return found;
  };
  const occurrences = (pass: ComparePass, wanted: string): readonly number[] => {
    let index = indexes.get(pass);
    if (!index) {
      index = new Map();
      for (let line = 0; line < count; line += 1) {
        const key = lineView(pass, line);
        const list = index.get(key);
        if (list) list.push(line);
        else index.set(key, [line]);
      }
      indexes.set(pass, index);
    }
    return index.get(wanted) ?? [];
  };
  return { lines, count, hasCr, lineView, find, occurrences };
}
