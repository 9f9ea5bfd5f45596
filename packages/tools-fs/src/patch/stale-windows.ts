/**
 * The stale-context pass: windows where the hunk's old side matches under
 * the loosest comparison except for one context line, either changed in
 * the file since the model read it (that line is skipped), or missing from
 * the hunk (one line of the file sits between two of its old lines, and is
 * kept). Removed lines must always match, at least two non-blank lines must
 * match, and a missing line is only accepted where no added line sits at
 * the gap (its order against the added lines would be a guess). The caller
 * applies a window only when it is the only one.
 */
import { type LineViews, normaliserOf } from "./file-lines.js";
import { type HunkBytes, type Window, candidateStarts, longestIndex, transformOfLines } from "./hunk-windows.js";
import { NO_INDENT_CHANGE, reindentLine } from "./indent-transform.js";

/** Old-line indices `gap` may take: interior, next to a context line, with no added line between old lines `gap - 1` and `gap`. */
function allowedGaps(hunk: HunkBytes): boolean[] {
  const allowed = new Array<boolean>(hunk.old.length).fill(false);
  let oldIndex = 0;
  let addedSince = false;
  for (const line of hunk.lines) {
    if (line.kind === "add") {
      addedSince = true;
      continue;
    }
    if (oldIndex > 0 && !addedSince) allowed[oldIndex] = hunk.oldIsContext[oldIndex - 1]! || hunk.oldIsContext[oldIndex]!;
    addedSince = false;
    oldIndex += 1;
  }
  return allowed;
}

/** Whether an added line is next to old line `oldIndex` in the hunk. */
function addedNextTo(hunk: HunkBytes, oldIndex: number): boolean {
  let seen = -1;
  for (let index = 0; index < hunk.lines.length; index += 1) {
    if (hunk.lines[index]!.kind === "add") continue;
    seen += 1;
    if (seen === oldIndex) return hunk.lines[index - 1]?.kind === "add" || hunk.lines[index + 1]?.kind === "add";
  }
  return false;
}

/**
 * What applying `window` writes over file lines `start`..`start + span`
 * (file line numbers kept, added lines as re-indented): two readings with
 * the same effect are one change.
 */
function effectOf(hunk: HunkBytes, window: Window, span: number): string {
  const out: string[] = [];
  let line = window.start;
  let oldIndex = 0;
  for (const patchLine of hunk.lines) {
    if (patchLine.kind !== "add" && oldIndex++ === window.gap) out.push(`=${line++}`);
    if (patchLine.kind === "add") out.push(`+${reindentLine(patchLine.text, window.transform) ?? patchLine.text}`);
    else {
      if (patchLine.kind === "context") out.push(`=${line}`);
      line += 1;
    }
  }
  for (; line < window.start + span; line += 1) out.push(`=${line}`);
  return out.join("\n");
}

/** Stale-context windows at or after `from`. */
export function findStaleWindows(views: LineViews, hunk: HunkBytes, from: number): Window[] {
  const wanted = hunk.old.map(normaliserOf("unicode-punctuation"));
  const size = wanted.length;
  if (wanted.filter((line) => line !== "").length < 3) return [];
  const matches = (offset: number, line: number) => line < views.count && views.lineView("unicode-punctuation", line) === wanted[offset];
  const first = longestIndex(wanted);
  const second = longestIndex(wanted, first);
  const starts = new Set<number>();
  if (hunk.endOfFile) {
    starts.add(views.count - size);
    starts.add(views.count - size - 1);
  } else {
    for (const anchor of [first, second]) {
      for (const start of candidateStarts(views, "unicode-punctuation", wanted, { anchor, from, endOfFile: false })) starts.add(start);
      // A missing line before the anchor line puts the window one line earlier.
      for (const start of candidateStarts(views, "unicode-punctuation", wanted, { anchor, from: from + 1, endOfFile: false })) starts.add(start - 1);
    }
  }
  const gaps = allowedGaps(hunk);
  const windows: Window[] = [];
  for (const start of [...starts].sort((left, right) => left - right)) {
    if (start < from) continue;
    // One changed context line.
    let skipped = -1;
    let valid = true;
    for (let offset = 0; offset < size && valid; offset += 1) {
      if (matches(offset, start + offset)) continue;
      if (skipped !== -1 || !hunk.oldIsContext[offset]) valid = false;
      else skipped = offset;
    }
    if (valid && skipped !== -1 && (!hunk.endOfFile || start + size === views.count)) {
      const lines = (offset: number) => start + offset;
      // A skipped first or last line next to added lines may be a line missing at the other end instead (the
      // window slid by one): where the added lines go against the file's lines would be a guess.
      // And the matched lines must agree on one indentation mapping (the loosest comparison ignores indentation).
      const transform = transformOfLines(views, hunk, lines, skipped);
      const unusable = ((skipped === 0 || skipped === size - 1) && addedNextTo(hunk, skipped)) || transform === null;
      windows.push({ start, transform: transform ?? NO_INDENT_CHANGE, unusable });
      // (The same start may also read as a line missing: kept both when they write different lines, so the
      // place is ambiguous.)
    }
    // One missing line: old lines 0..gap-1 at start.., old lines gap.. one line further on.
    if (hunk.endOfFile && start + size + 1 !== views.count) continue;
    let prefix = 0;
    while (prefix < size && matches(prefix, start + prefix)) prefix += 1;
    if (prefix === size) continue;
    let suffix = 0;
    while (suffix < size && matches(size - 1 - suffix, start + size - suffix)) suffix += 1;
    const fits: number[] = [];
    for (let gap = Math.max(1, size - suffix); gap <= Math.min(prefix, size - 1); gap += 1) fits.push(gap);
    if (fits.length === 0) continue;
    // Two places for the missing line (it equals a neighbour), or added lines at the gap, would order the file's lines by a guess.
    const gap = fits[0]!;
    const lines = (offset: number) => start + offset + (offset >= gap ? 1 : 0);
    const transform = transformOfLines(views, hunk, lines);
    const window: Window = { start, transform: transform ?? NO_INDENT_CHANGE, gap, unusable: fits.length !== 1 || !gaps[gap] || transform === null };
    // A changed-line reading of the same start that writes the same lines is the same change, not a second place.
    const previous = windows.at(-1);
    if (previous && previous.start === start && previous.gap === undefined && !previous.unusable && !window.unusable) {
      if (effectOf(hunk, previous, size + 1) === effectOf(hunk, window, size + 1)) {
        windows[windows.length - 1] = window;
        continue;
      }
    }
    windows.push(window);
  }
  return windows;
}
