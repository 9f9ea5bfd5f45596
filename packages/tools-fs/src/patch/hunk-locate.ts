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
import { COMPARE_PASSES, type ComparePass, type LineViews, normaliserOf } from "./file-lines.js";
import { type HunkBytes, type HunkPlace, type Window, findWindows } from "./hunk-windows.js";
import { NO_INDENT_CHANGE } from "./indent-transform.js";
import { findStaleWindows } from "./stale-windows.js";

export type { HunkBytes, HunkPlace };

/** What {@link locateHunk} found. */
export type HunkLocation =
  | { kind: "found"; place: HunkPlace }
  | { kind: "ambiguous"; starts: number[]; strategy: PatchMatchStrategy }
  /** No place; `anchorLine`: where the last anchor was found (0-based), when all were. */
  | { kind: "none"; anchorLine?: number | undefined };

type BodyResult = { kind: "found"; place: HunkPlace } | { kind: "ambiguous"; starts: number[]; strategy: PatchMatchStrategy } | null;

function choose(windows: Window[], strategy: PatchMatchStrategy, scopeEnd: number): BodyResult {
  const inScope = windows.filter((window) => window.start < scopeEnd);
  const pool = inScope.length ? inScope : windows;
  if (pool.length > 1) return { kind: "ambiguous", starts: [...new Set(pool.map((window) => window.start))], strategy };
  // A place that nearly matches but cannot be applied without a guess still makes another place ambiguous; alone it is no place.
  if (pool[0]!.unusable) return null;
  return { kind: "found", place: { start: pool[0]!.start, strategy, transform: pool[0]!.transform, gap: pool[0]!.gap } };
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
