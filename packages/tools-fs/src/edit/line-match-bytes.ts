/**
 * The line-based passes (trailing-whitespace, indentation) over a Buffer.
 * Candidate windows come from `Buffer.indexOf` of the pattern's longest
 * normalised line; only the lines of candidate windows are decoded, so the
 * cost is one native scan of the file plus the candidates.
 */
import { type SearchContext, createIndexFinder } from "../shared/fast-index-of.js";
import type { EditMatch, LinePass } from "./match-types.js";
import { renderEolLazy } from "./line-endings.js";
import { type Shift, buildLineIndex, findLineMatchesInText, reindent, shiftOf, trimBoth, trimEnd } from "./line-match.js";

const BOM = "\xEF\xBB\xBF";

/** Splits `old_string` (latin1 bytes) into pattern lines the way both line passes read it. */
function patternLines(oldBytes: string): { lines: string[]; endsWithNewline: boolean } {
  const pattern = oldBytes.startsWith(BOM) ? oldBytes.slice(BOM.length) : oldBytes;
  const lines = pattern.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  const endsWithNewline = pattern.endsWith("\n");
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

/**
 * The line of `old_string` (latin1 bytes) that anchors the line passes: the
 * longest one without its surrounding whitespace (the first of equals), and
 * that text; `text` is "" when every line is blank. Every pass's needle
 * contains `text`, so Edit searches the file for one probe cut from it.
 */
export function anchorLine(oldBytes: string): { index: number; text: string } {
  const { lines } = patternLines(oldBytes);
  let index = 0;
  let text = "";
  for (let line = 0; line < lines.length; line += 1) {
    const trimmed = trimBoth(lines[line]!);
    if (trimmed.length > text.length) {
      index = line;
      text = trimmed;
    }
  }
  return { index, text };
}

/**
 * Runs one line-based pass. Returns every valid window, ascending and
 * non-overlapping (after a hit the next window starts past it).
 */
export function findLineMatches(content: Buffer, linePass: LinePass, search?: SearchContext): EditMatch[] {
  const { oldBytes, newBytes, pass, eolOf } = linePass;
  const { lines: pattern, endsWithNewline } = patternLines(oldBytes);
  const count = pattern.length;
  if (count === 0 || content.length === 0) return [];
  const normalise = pass === "trailing-whitespace" ? trimEnd : trimBoth;
  const wanted = pattern.map(normalise);
  // Any line with text finds every window (a window's lines hold their
  // normalised pattern lines); both passes take the same one, whose text is
  // in the probe the finders of `search` share.
  const anchor = anchorLine(oldBytes).index;
  if (wanted[anchor] === "") {
    const text = content.toString("latin1");
    return findLineMatchesInText(text, buildLineIndex(text), linePass);
  }
  const anchorBytes = Buffer.from(wanted[anchor]!, "latin1");
  const bomLength = content.length >= 3 && content[0] === 0xef && content[1] === 0xbb && content[2] === 0xbf ? 3 : 0;
  const length = content.length;
  const newLf = newBytes.replace(/\r\n/g, "\n");

  const lineStartOf = (position: number) => (position === 0 ? 0 : content.lastIndexOf(10, position - 1) + 1);
  const lineEndOf = (start: number) => {
    const newline = content.indexOf(10, start);
    return newline === -1 ? length : newline + 1;
  };
  const previousLineStart = (start: number) => (start === 0 ? -1 : start === 1 ? 0 : content.lastIndexOf(10, start - 2) + 1);
  const contentStartOf = (start: number) => (start === 0 ? bomLength : start);
  const contentEndOf = (start: number, end: number) => {
    let stop = end;
    if (stop > start && content[stop - 1] === 10) {
      stop -= 1;
      if (stop > contentStartOf(start) && content[stop - 1] === 13) stop -= 1;
    }
    return stop;
  };

  const tryWindow = (first: number): (EditMatch & { windowEnd: number }) | null => {
    let shift: Shift | null = null;
    let start = first;
    let lastStart = first;
    let lastEnd = first;
    for (let offset = 0; offset < count; offset += 1) {
      if (start >= length) return null;
      const end = lineEndOf(start);
      const line = content.toString("latin1", contentStartOf(start), contentEndOf(start, end));
      if (normalise(line) !== wanted[offset]) return null;
      if (pass === "indentation" && wanted[offset] !== "") {
        const lineShift = shiftOf(line, pattern[offset]!);
        if (!lineShift) return null;
        if (shift && (shift.kind !== lineShift.kind || shift.prefix !== lineShift.prefix) && !(shift.prefix === "" && lineShift.prefix === "")) return null;
        shift ??= lineShift;
      }
      lastStart = start;
      lastEnd = end;
      start = end;
    }
    let replacement = newLf;
    if (pass === "indentation" && shift) {
      const shifted = reindent(newLf, shift);
      if (shifted === null) return null;
      replacement = shifted;
    }
    return {
      start: contentStartOf(first),
      end: endsWithNewline ? lastEnd : contentEndOf(lastStart, lastEnd),
      replacement: renderEolLazy(replacement, eolOf),
      windowEnd: lastEnd,
    };
  };

  const matches: EditMatch[] = [];
  let nextFree = 0;
  let from = 0;
  const finder = createIndexFinder(content, anchorBytes, search);
  while (from < length) {
    const hit = finder.find(from);
    if (hit === -1) break;
    const anchorLine = lineStartOf(hit);
    let first = anchorLine;
    for (let step = 0; step < anchor && first !== -1; step += 1) first = previousLineStart(first);
    if (first !== -1 && first >= nextFree) {
      const match = tryWindow(first);
      if (match) {
        matches.push({ start: match.start, end: match.end, replacement: match.replacement });
        nextFree = match.windowEnd;
      }
    }
    from = lineEndOf(anchorLine);
  }
  return matches;
}
