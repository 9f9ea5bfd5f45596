/**
 * The line-based passes of Edit's matcher (trailing-whitespace and
 * indentation). Windows of file lines are compared with the lines of
 * `old_string`; candidates come from `indexOf` of the pattern's most
 * distinctive line, so the file is scanned once, not line by line.
 */
import type { EditMatch, LinePass } from "./match-types.js";
import { renderEol } from "./line-endings.js";
import { trimmedEnd, trimmedStart } from "./unicode-space.js";

export { trimEnd, trimBoth, shiftOf, reindent };
export type { Shift };

const BOM = "\xEF\xBB\xBF";

/** Start offsets of every line of a byte string. */
export interface LineIndex {
  /** Offset where each line starts. */
  starts: number[];
  /** Length of the text. */
  length: number;
  /** Bytes to skip at the start of line 0 (a BOM). */
  bomLength: number;
}

/** Indexes the lines of `text` (lines split inclusively of `\n`). */
export function buildLineIndex(text: string): LineIndex {
  const starts: number[] = text.length ? [0] : [];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    if (index + 1 < text.length) starts.push(index + 1);
  }
  return { starts, length: text.length, bomLength: text.startsWith(BOM) ? BOM.length : 0 };
}

/** `text` without trailing Unicode White_Space (see unicode-space.ts: U+3000 and U+00A0 count, U+FEFF does not). */
function trimEnd(text: string): string {
  return text.slice(0, trimmedEnd(text));
}

/** Length of a line's indentation: spaces, tabs and horizontal Unicode White_Space (e.g. U+3000). */
function trimStartLength(text: string): number {
  return trimmedStart(text, text.length, true);
}

/** `text` without leading and trailing Unicode White_Space. */
function trimBoth(text: string): string {
  const end = trimmedEnd(text);
  return text.slice(trimmedStart(text, end), end);
}

type Shift = { kind: "add" | "remove"; prefix: string };

function lineEnd(index: LineIndex, line: number): number {
  return line + 1 < index.starts.length ? index.starts[line + 1]! : index.length;
}

function contentStart(index: LineIndex, line: number): number {
  return line === 0 ? index.bomLength : index.starts[line]!;
}

function contentEnd(text: string, index: LineIndex, line: number): number {
  let end = lineEnd(index, line);
  if (end > 0 && text.charCodeAt(end - 1) === 10) {
    end -= 1;
    if (end > contentStart(index, line) && text.charCodeAt(end - 1) === 13) end -= 1;
  }
  return end;
}

function lineOf(index: LineIndex, offset: number): number {
  let low = 0;
  let high = index.starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (index.starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

function shiftOf(fileLine: string, patternLine: string): Shift | null {
  const fileIndent = fileLine.slice(0, trimStartLength(fileLine));
  const patternIndent = patternLine.slice(0, trimStartLength(patternLine));
  if (fileIndent === patternIndent) return { kind: "add", prefix: "" };
  if (fileIndent.endsWith(patternIndent)) return { kind: "add", prefix: fileIndent.slice(0, fileIndent.length - patternIndent.length) };
  if (patternIndent.endsWith(fileIndent)) return { kind: "remove", prefix: patternIndent.slice(0, patternIndent.length - fileIndent.length) };
  return null;
}

function reindent(newLf: string, shift: Shift): string | null {
  if (shift.prefix === "") return newLf;
  const lines = newLf.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (trimBoth(line) === "") continue;
    if (shift.kind === "add") lines[index] = shift.prefix + line;
    else if (line.startsWith(shift.prefix)) lines[index] = line.slice(shift.prefix.length);
    else return null;
  }
  return lines.join("\n");
}

/**
 * Runs one line-based pass over a whole-file string by sliding a window over
 * every line: the slow path, used only when every line of `old_string` is
 * blank (there is no anchor to search for).
 */
export function findLineMatchesInText(text: string, index: LineIndex, linePass: LinePass): EditMatch[] {
  const { oldBytes, newBytes, pass, eolOf } = linePass;
  let pattern = oldBytes.startsWith(BOM) ? oldBytes.slice(BOM.length) : oldBytes;
  const patternLines = pattern.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  const endsWithNewline = pattern.endsWith("\n");
  if (endsWithNewline) patternLines.pop();
  pattern = "";
  const count = patternLines.length;
  const lineCount = index.starts.length;
  if (count === 0 || count > lineCount) return [];
  const normalise = pass === "trailing-whitespace" ? trimEnd : trimBoth;
  const wanted = patternLines.map(normalise);
  // The anchor: the longest normalised pattern line, found with indexOf.
  let anchor = 0;
  for (let line = 1; line < count; line += 1) if (wanted[line]!.length > wanted[anchor]!.length) anchor = line;
  const anchorText = wanted[anchor]!;
  const newLf = newBytes.replace(/\r\n/g, "\n");

  const fileLine = (line: number) => text.slice(contentStart(index, line), contentEnd(text, index, line));

  const tryWindow = (first: number): EditMatch | null => {
    let shift: Shift | null = null;
    for (let offset = 0; offset < count; offset += 1) {
      const line = fileLine(first + offset);
      if (normalise(line) !== wanted[offset]) return null;
      if (pass === "indentation") {
        if (wanted[offset] === "") continue; // blank on both sides
        const lineShift = shiftOf(line, patternLines[offset]!);
        if (!lineShift) return null;
        if (shift && (shift.kind !== lineShift.kind || shift.prefix !== lineShift.prefix)) {
          // Add("") and Remove("") are the same (no shift).
          if (!(shift.prefix === "" && lineShift.prefix === "")) return null;
        }
        shift ??= lineShift;
      }
    }
    let replacement = newLf;
    if (pass === "indentation" && shift) {
      const shifted = reindent(newLf, shift);
      if (shifted === null) return null;
      replacement = shifted;
    }
    const last = first + count - 1;
    return {
      start: contentStart(index, first),
      end: endsWithNewline ? lineEnd(index, last) : contentEnd(text, index, last),
      replacement: renderEol(replacement, eolOf()),
    };
  };

  const windows: Array<{ first: number; match: EditMatch }> = [];
  if (anchorText === "") {
    for (let first = 0; first + count <= lineCount; first += 1) {
      const match = tryWindow(first);
      if (match) windows.push({ first, match });
    }
  } else {
    let from = 0;
    while (from < text.length) {
      const hit = text.indexOf(anchorText, from);
      if (hit === -1) break;
      const line = lineOf(index, hit);
      const first = line - anchor;
      if (first >= 0 && first + count <= lineCount) {
        const match = tryWindow(first);
        if (match) windows.push({ first, match });
      }
      from = lineEnd(index, line);
    }
  }
  const accepted: EditMatch[] = [];
  let nextFree = 0;
  for (const window of windows) {
    if (window.first < nextFree) continue;
    accepted.push(window.match);
    nextFree = window.first + count;
  }
  return accepted;
}
