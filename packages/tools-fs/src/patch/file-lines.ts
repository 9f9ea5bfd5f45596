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

/** The normalised views of a file's lines, built on first use. */
export interface LineViews {
  readonly lines: FileLines;
  /** Number of lines. */
  readonly count: number;
  /** Every line normalised by `pass`. */
  view(pass: ComparePass): readonly string[];
  /** Ascending lines whose `pass` view is `text`. */
  occurrences(pass: ComparePass, text: string): readonly number[];
}

/** Creates the views of `lines` (nothing is computed until asked). */
export function createLineViews(lines: FileLines): LineViews {
  const views = new Map<ComparePass, string[]>();
  const indexes = new Map<ComparePass, Map<string, number[]>>();
  const count = lines.starts.length;
  const view = (pass: ComparePass): string[] => {
    let result = views.get(pass);
    if (!result) {
      // Without any CR the line-endings view is the exact one.
      if (pass === "line-endings" && !lines.text.includes("\r")) result = view("exact");
      else {
        const normalise = normaliserOf(pass);
        result = new Array<string>(count);
        for (let line = 0; line < count; line += 1) result[line] = normalise(lineWithoutLf(lines, line));
      }
      views.set(pass, result);
    }
    return result;
  };
  const occurrences = (pass: ComparePass, text: string): readonly number[] => {
    let index = indexes.get(pass);
    if (!index) {
      index = new Map();
      const lineViews = view(pass);
      for (let line = 0; line < count; line += 1) {
        const key = lineViews[line]!;
        const list = index.get(key);
        if (list) list.push(line);
        else index.set(key, [line]);
      }
      indexes.set(pass, index);
    }
    return index.get(text) ?? [];
  };
  return { lines, count, view, occurrences };
}
