/**
 * The window search of the hunk locator: where a hunk's old side matches
 * under one comparing pass, and the indentation mapping of a window. A leaf
 * of hunk-locate.ts and stale-windows.ts.
 */
import type { PatchMatchStrategy } from "./patch-match-types.js";
import { type ComparePass, type LineViews, lineContent, normaliserOf } from "./file-lines.js";
import { type IndentTransform, NO_INDENT_CHANGE, indentTransformOf, reindentLine } from "./indent-transform.js";

/** A hunk as the locator reads it: latin1 byte strings of UTF-8, without the prefix character. */
export interface HunkBytes {
  readonly lines: ReadonlyArray<{ readonly kind: "context" | "remove" | "add"; readonly text: string }>;
  /** The old side (context and removed lines) in order. */
  readonly old: readonly string[];
  /** Which of `old` are context lines. */
  readonly oldIsContext: readonly boolean[];
  readonly anchors: readonly string[];
  readonly endOfFile: boolean;
}

/** A place a hunk applies. */
export interface HunkPlace {
  /** 0-based first line of the old side (the insertion line for an empty old side). */
  start: number;
  strategy: PatchMatchStrategy;
  /** How added lines are re-indented. */
  transform: IndentTransform;
  /** A line of the file missing from the hunk's context sits before old line `gap` (kept as context). */
  gap?: number | undefined;
}

/** A place where a hunk's old side matches. */
export interface Window {
  start: number;
  transform: IndentTransform;
  /** A line of the file missing from the hunk's context sits before old line `gap` (stale-context only). */
  gap?: number | undefined;
  /** A near match that would need a guess to apply (stale-context only): it counts against another place, never applies. */
  unusable?: boolean | undefined;
}

export const stripCr = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);

/** The index of the longest of `wanted` (the first of equals), -1 when all are empty. */
export function longestIndex(wanted: readonly string[], skip = -1): number {
  let best = -1;
  for (let index = 0; index < wanted.length; index += 1) {
    if (index !== skip && wanted[index]!.length > (best === -1 ? 0 : wanted[best]!.length)) best = index;
  }
  return best;
}

/** Where {@link candidateStarts} looks: pattern line `anchor` (-1: none), from file line `from`, or only the last window when `endOfFile`. */
export interface CandidateSearch {
  anchor: number;
  from: number;
  endOfFile: boolean;
}

/** Window starts to verify: from the lines equal to pattern line `anchor`, or every start when it is -1. */
export function candidateStarts(views: LineViews, pass: ComparePass, wanted: readonly string[], search: CandidateSearch): number[] {
  const { anchor, from, endOfFile } = search;
  const size = wanted.length;
  const last = views.count - size;
  if (last < from) return [];
  if (endOfFile) return [last];
  if (anchor === -1) return Array.from({ length: last - from + 1 }, (_, offset) => from + offset);
  const starts: number[] = [];
  for (const line of views.find(pass, wanted[anchor]!, from + anchor)) {
    const start = line - anchor;
    if (start > last) break;
    starts.push(start);
  }
  return starts;
}

/** The indentation mapping of a window whose old line `offset` is file line `lineOf(offset)` (the skipped one left out). */
export function transformOfLines(views: LineViews, hunk: HunkBytes, lineOf: (offset: number) => number, skipped = -1): IndentTransform | null {
  const pairs: Array<readonly [string, string]> = [];
  for (let offset = 0; offset < hunk.old.length; offset += 1) {
    if (offset !== skipped) pairs.push([lineContent(views.lines, lineOf(offset)), stripCr(hunk.old[offset]!)]);
  }
  return indentTransformOf(pairs);
}

/** {@link transformOfLines} of a window of consecutive lines from `start`. */
export function transformOf(views: LineViews, hunk: HunkBytes, start: number): IndentTransform | null {
  return transformOfLines(views, hunk, (offset) => start + offset);
}

export function addedLinesFit(hunk: HunkBytes, transform: IndentTransform): boolean {
  return hunk.lines.every((line) => line.kind !== "add" || reindentLine(line.text, transform) !== null);
}

/** Every window at or after `from` where the old side matches under `pass`. */
export function findWindows(views: LineViews, hunk: HunkBytes, pass: ComparePass, from: number): Window[] {
  const normalise = normaliserOf(pass);
  const wanted = hunk.old.map(normalise);
  const windows: Window[] = [];
  for (const start of candidateStarts(views, pass, wanted, { anchor: longestIndex(wanted), from, endOfFile: hunk.endOfFile })) {
    let matches = true;
    for (let offset = 0; offset < wanted.length && matches; offset += 1) matches = views.lineView(pass, start + offset) === wanted[offset];
    if (!matches) continue;
    if (pass === "indentation") {
      const transform = transformOf(views, hunk, start);
      if (transform && addedLinesFit(hunk, transform)) windows.push({ start, transform });
    } else if (pass === "unicode-punctuation") {
      // The lines must agree on one indentation mapping, or the added lines' indentation would be a guess: such a
      // place counts against another one but is never applied.
      const transform = transformOf(views, hunk, start);
      windows.push({ start, transform: transform ?? NO_INDENT_CHANGE, unusable: transform === null });
    } else windows.push({ start, transform: NO_INDENT_CHANGE });
  }
  return windows;
}
