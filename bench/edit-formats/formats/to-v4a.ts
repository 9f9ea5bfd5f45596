/**
 * A file's change as a V4A `*** Update File:` patch written the way the
 * format's instructions tell models to: each hunk with git's 3 lines of
 * context and an `@@` anchor naming the nearest header line above it (only
 * one between the previous hunk and this one: an anchor is searched forward
 * from the previous hunk), `*** End of File` when the old lines end the file,
 * and, when the context still matches more than one place after the anchor,
 * more context lines until it matches one (the instructions' "if 3 lines are
 * not enough").
 */
import type { DiffHunk, DiffLine } from "./diff-hunks.js";
import { isHeaderLine } from "./header-lines.js";

/** One hunk of the patch as data (perturbations edit this, then it is rendered). */
export interface V4AHunk {
  readonly anchors: readonly string[];
  readonly lines: readonly DiffLine[];
  readonly endOfFile: boolean;
  /** 0-based line of the old file where the hunk's old lines start (not written; for the perturbations). */
  readonly start: number;
}

/** One file's update patch as data. */
export interface V4APatch {
  readonly path: string;
  readonly hunks: readonly V4AHunk[];
}

/** Whether `needle` occurs at `at` in `lines`. */
function occursAt(lines: readonly string[], needle: readonly string[], at: number): boolean {
  for (let index = 0; index < needle.length; index++) if (lines[at + index] !== needle[index]) return false;
  return true;
}

/** How many places from `from` on hold `needle` (exact lines). */
export function countOccurrences(lines: readonly string[], needle: readonly string[], from: number): number {
  let count = 0;
  for (let at = from; at + needle.length <= lines.length; at++) if (occursAt(lines, needle, at)) count++;
  return count;
}

/** The patch of a change from git's hunks over the old file's lines (BOM stripped). */
export function toV4APatch(filePath: string, oldLines: readonly string[], diffHunks: readonly DiffHunk[]): V4APatch {
  const hunks: V4AHunk[] = [];
  let cursor = 0;
  diffHunks.forEach((diffHunk, index) => {
    let lines = [...diffHunk.lines];
    let start = diffHunk.oldStart;
    let end = start + diffHunk.oldCount;
    // Growth may not reach into the next hunk's lines.
    const limit = diffHunks[index + 1]?.oldStart ?? oldLines.length;
    // The nearest header line above the hunk (not above the previous hunk) and where the hunk is searched from after it.
    const anchorAbove = (first: number): { anchors: string[]; searchFrom: number } => {
      for (let line = first - 1; line >= cursor; line--) {
        if (!isHeaderLine(oldLines[line] as string)) continue;
        const anchor = (oldLines[line] as string).trim();
        // The applier takes the anchor's first line from the cursor on, which may be an earlier one of the same text.
        return { anchors: [anchor], searchFrom: oldLines.findIndex((text, at) => at >= cursor && text.trim() === anchor) + 1 };
      }
      return { anchors: [], searchFrom: cursor };
    };
    let anchored = anchorAbove(start);
    const oldSide = () => lines.filter((line) => line.kind !== "add").map((line) => line.text);
    // Growing upwards may take the anchor line into the context: the next header above becomes the anchor.
    while (countOccurrences(oldLines, oldSide(), anchored.searchFrom) > 1) {
      const before = start > cursor;
      const after = end < limit;
      if (!before && !after) break;
      if (before) lines = [{ kind: "context", text: oldLines[--start] as string }, ...lines];
      if (after) lines = [...lines, { kind: "context", text: oldLines[end++] as string }];
      anchored = anchorAbove(start);
    }
    const anchors = anchored.anchors;
    hunks.push({ anchors, lines, endOfFile: end === oldLines.length, start });
    cursor = end;
  });
  return { path: filePath, hunks };
}

/** The patch as text: `*** Begin Patch`, the update, `*** End Patch`, each line ended by `eol`. */
export function renderV4APatch(patch: V4APatch, eol = "\n"): string {
  const out = ["*** Begin Patch", `*** Update File: ${patch.path}`];
  for (const hunk of patch.hunks) {
    if (hunk.anchors.length === 0) out.push("@@");
    for (const anchor of hunk.anchors) out.push(`@@ ${anchor}`);
    for (const line of hunk.lines) out.push(`${line.kind === "context" ? " " : line.kind === "remove" ? "-" : "+"}${line.text}`);
    if (hunk.endOfFile) out.push("*** End of File");
  }
  out.push("*** End Patch");
  return out.join(eol) + eol;
}
