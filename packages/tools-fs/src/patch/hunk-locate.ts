/**
 * Finds where one hunk of a V4A patch applies. Passes run strictest first
 * (exact, line-endings, trailing-whitespace, indentation,
 * unicode-punctuation, then stale-context: one context line skipped); the
 * first pass with a place wins, and two places under it are ambiguous,
 * never guessed.
 *
 * Anchors (`@@ text`) are found one after the other, as Codex finds them:
 * each the first line from the current position (then from after the
 * previous anchor) equal to it under the strictest pass that finds one. The
 * hunk is then searched from the last anchor's line; its place must be
 * unique before the next line equal to any of the anchors (the anchor's
 * "scope": `@@ class A` + `@@ def __init__` pick A's method, not B's),
 * or, when the scope holds none, unique after the anchor. A place after the
 * anchor is refused as ambiguous when a stricter pass matches elsewhere (a
 * wrong anchor must not pull a hunk onto a near copy of its lines). A hunk
 * not found after its anchors, or whose anchor matches nothing, is searched
 * again from the current position without them and applies only at a
 * unique place (`anchor-ignored`).
 *
 * Limit: a wrong anchor placed before an exact copy of the hunk's old lines
 * (the copy unique after it) applies the hunk to that copy: the patch says
 * so, and nothing tells it from an anchor that disambiguates.
 */
import type { PatchMatchStrategy } from "./patch-match-types.js";
import { COMPARE_PASSES, type ComparePass, type LineViews, lineContent, normaliserOf } from "./file-lines.js";
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
}

/** What {@link locateHunk} found. */
export type HunkLocation =
  | { kind: "found"; place: HunkPlace }
  | { kind: "ambiguous"; starts: number[]; strategy: PatchMatchStrategy }
  /** No place; `anchorLine`: where the last anchor was found (0-based), when all were. */
  | { kind: "none"; anchorLine?: number | undefined };

interface Window {
  start: number;
  transform: IndentTransform;
}

const stripCr = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);

/** The index of the longest of `wanted` (the first of equals), -1 when all are empty. */
function longestIndex(wanted: readonly string[], skip = -1): number {
  let best = -1;
  for (let index = 0; index < wanted.length; index += 1) {
    if (index !== skip && wanted[index]!.length > (best === -1 ? 0 : wanted[best]!.length)) best = index;
  }
  return best;
}

/** Window starts to verify: from the lines equal to pattern line `anchor`, or every start when it is -1. */
function candidateStarts(views: LineViews, pass: ComparePass, wanted: readonly string[], anchor: number, from: number, endOfFile: boolean): number[] {
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

/** The indentation mapping of a window, from its compared lines (the skipped one left out). */
function transformOf(views: LineViews, hunk: HunkBytes, start: number, skipped = -1): IndentTransform | null {
  const pairs: Array<readonly [string, string]> = [];
  for (let offset = 0; offset < hunk.old.length; offset += 1) {
    if (offset !== skipped) pairs.push([lineContent(views.lines, start + offset), stripCr(hunk.old[offset]!)]);
  }
  return indentTransformOf(pairs);
}

function addedLinesFit(hunk: HunkBytes, transform: IndentTransform): boolean {
  return hunk.lines.every((line) => line.kind !== "add" || reindentLine(line.text, transform) !== null);
}

/** Every window at or after `from` where the old side matches under `pass`. */
function findWindows(views: LineViews, hunk: HunkBytes, pass: ComparePass, from: number): Window[] {
  const normalise = normaliserOf(pass);
  const wanted = hunk.old.map(normalise);
  const windows: Window[] = [];
  for (const start of candidateStarts(views, pass, wanted, longestIndex(wanted), from, hunk.endOfFile)) {
    let matches = true;
    for (let offset = 0; offset < wanted.length && matches; offset += 1) matches = views.lineView(pass, start + offset) === wanted[offset];
    if (!matches) continue;
    if (pass === "indentation") {
      const transform = transformOf(views, hunk, start);
      if (transform && addedLinesFit(hunk, transform)) windows.push({ start, transform });
    } else if (pass === "unicode-punctuation") {
      windows.push({ start, transform: transformOf(views, hunk, start) ?? NO_INDENT_CHANGE });
    } else windows.push({ start, transform: NO_INDENT_CHANGE });
  }
  return windows;
}

/**
 * Windows where every old line but one context line matches under the
 * loosest comparison, with at least two non-blank lines matching.
 */
function findStaleWindows(views: LineViews, hunk: HunkBytes, from: number): Window[] {
  const wanted = hunk.old.map(normaliserOf("unicode-punctuation"));
  if (wanted.filter((line) => line !== "").length < 3) return [];
  const first = longestIndex(wanted);
  const second = longestIndex(wanted, first);
  const starts = new Set<number>();
  for (const anchor of [first, second]) {
    for (const start of candidateStarts(views, "unicode-punctuation", wanted, anchor, from, hunk.endOfFile)) starts.add(start);
  }
  const windows: Window[] = [];
  for (const start of [...starts].sort((left, right) => left - right)) {
    let skipped = -1;
    let valid = true;
    for (let offset = 0; offset < wanted.length && valid; offset += 1) {
      if (views.lineView("unicode-punctuation", start + offset) === wanted[offset]) continue;
      if (skipped !== -1 || !hunk.oldIsContext[offset]) valid = false;
      else skipped = offset;
    }
    if (!valid || skipped === -1) continue;
    windows.push({ start, transform: transformOf(views, hunk, start, skipped) ?? NO_INDENT_CHANGE });
  }
  return windows;
}

type BodyResult = { kind: "found"; place: HunkPlace } | { kind: "ambiguous"; starts: number[]; strategy: PatchMatchStrategy } | null;

function choose(windows: Window[], strategy: PatchMatchStrategy, scopeEnd: number): BodyResult {
  const inScope = windows.filter((window) => window.start < scopeEnd);
  const pool = inScope.length ? inScope : windows;
  if (pool.length > 1) return { kind: "ambiguous", starts: pool.map((window) => window.start), strategy };
  return { kind: "found", place: { start: pool[0]!.start, strategy, transform: pool[0]!.transform } };
}

/** The hunk's old side at or after `from`: the first pass with a place decides (places before `scopeEnd` first). */
export function locateBody(views: LineViews, hunk: HunkBytes, from: number, scopeEnd = Number.POSITIVE_INFINITY): BodyResult {
  for (const pass of COMPARE_PASSES) {
    if (pass === "line-endings" && !views.hasCr && !hunk.old.some((line) => line.endsWith("\r"))) continue;
    const windows = findWindows(views, hunk, pass, from);
    if (windows.length) return choose(windows, pass, scopeEnd);
  }
  const stale = findStaleWindows(views, hunk, from);
  return stale.length ? choose(stale, "stale-context", scopeEnd) : null;
}

/** The first line at or after `from` equal to `anchor` under the strictest pass that finds one. */
export function findAnchor(views: LineViews, anchor: string, from: number): { line: number; pass: ComparePass; wanted: string } | null {
  for (const pass of COMPARE_PASSES) {
    const wanted = normaliserOf(pass)(anchor);
    if (wanted === "") return null;
    const [line] = views.find(pass, wanted, from, 1);
    if (line !== undefined) return { line, pass, wanted };
  }
  return null;
}

const RANK: Record<PatchMatchStrategy, number> = {
  exact: 0,
  "line-endings": 1,
  "trailing-whitespace": 2,
  indentation: 3,
  "unicode-punctuation": 4,
  "stale-context": 5,
  "anchor-ignored": 6,
};

/**
 * The hunk after its anchors: unique in the last anchor's scope (up to the
 * next line equal to any of the anchors), else unique after it. Refused as
 * ambiguous when a stricter pass matches elsewhere (before the anchor): a
 * wrong anchor must not pull a hunk onto a near copy of its lines.
 */
function locateAfterAnchors(views: LineViews, hunk: HunkBytes, from: number, found: ReadonlyArray<NonNullable<ReturnType<typeof findAnchor>>>): BodyResult {
  const last = found[found.length - 1]!;
  let scopeEnd = Number.POSITIVE_INFINITY;
  for (const anchor of found) {
    const [next] = views.find(anchor.pass, anchor.wanted, last.line + 1, 1);
    if (next !== undefined) scopeEnd = Math.min(scopeEnd, next);
  }
  const body = locateBody(views, hunk, last.line, scopeEnd);
  if (!body) return null;
  const anywhere = locateBody(views, hunk, from);
  if (
    anywhere &&
    RANK[anywhere.kind === "found" ? anywhere.place.strategy : anywhere.strategy] < RANK[body.kind === "found" ? body.place.strategy : body.strategy]
  ) {
    const starts = [...(body.kind === "found" ? [body.place.start] : body.starts), ...(anywhere.kind === "found" ? [anywhere.place.start] : anywhere.starts)];
    return {
      kind: "ambiguous",
      starts: [...new Set(starts)].sort((left, right) => left - right),
      strategy: body.kind === "found" ? body.place.strategy : body.strategy,
    };
  }
  return body;
}

/** Where `hunk` applies, searching from line `from` (0-based: after the previous hunk). */
export function locateHunk(views: LineViews, hunk: HunkBytes, from: number): HunkLocation {
  const count = views.count;
  // The anchors, each the first match after the one before it.
  const found: Array<NonNullable<ReturnType<typeof findAnchor>>> = [];
  for (let cursor = from; found.length < hunk.anchors.length; ) {
    const anchor = findAnchor(views, hunk.anchors[found.length]!, cursor);
    if (!anchor) break;
    found.push(anchor);
    cursor = anchor.line + 1;
  }
  const anchored = hunk.anchors.length > 0 && found.length === hunk.anchors.length;
  const lastAnchor = anchored ? found[found.length - 1] : undefined;
  if (hunk.old.length === 0) {
    // Only additions: after the anchor's line; at the end of the file without an anchor (as Codex) or with `*** End of File`.
    if (hunk.endOfFile || hunk.anchors.length === 0) return { kind: "found", place: { start: count, strategy: "exact", transform: NO_INDENT_CHANGE } };
    if (!lastAnchor) return { kind: "none" };
    return { kind: "found", place: { start: lastAnchor.line + 1, strategy: lastAnchor.pass, transform: NO_INDENT_CHANGE } };
  }
  if (anchored) {
    const body = locateAfterAnchors(views, hunk, from, found);
    if (body) return body;
  }
  if (hunk.anchors.length === 0) return locateBody(views, hunk, from) ?? { kind: "none" };
  const without = locateBody(views, hunk, from);
  if (!without) return { kind: "none", anchorLine: lastAnchor?.line };
  if (without.kind === "ambiguous") return { ...without, strategy: "anchor-ignored" };
  return { kind: "found", place: { ...without.place, strategy: "anchor-ignored" } };
}
