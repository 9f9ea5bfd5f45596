/**
 * A file's change as Edit pairs, one per git hunk, in order: old_string is
 * the hunk's changed lines (with one line of context when a side would be
 * empty), grown by a line on each side until it occurs once in the file as
 * the earlier pairs left it (Edit's rule); new_string is the same span after
 * the change. Lines are joined with LF and the last one is not terminated,
 * as models write them (Edit matches them in a CRLF file by its line-endings
 * pass). Each pair also records the file expected after it, so a pair that
 * applies at the wrong place is seen even when a later pair is refused.
 */
import type { DiffHunk } from "./diff-hunks.js";

/** One Edit pair. */
export interface EditPair {
  readonly old_string: string;
  readonly new_string: string;
}

/** How the file's lines are written back: its line ending, final newline and BOM. */
export interface TextShape {
  readonly eol: "\n" | "\r\n";
  readonly finalNewline: boolean;
  readonly bom: boolean;
}

/** The shape of a text (the corpus holds only files with one line-ending style). */
export function shapeOf(text: string): TextShape {
  return { eol: text.includes("\r\n") ? "\r\n" : "\n", finalNewline: text.endsWith("\n"), bom: text.startsWith("\uFEFF") };
}

/** Lines rendered back into the file's text. */
export function renderLines(lines: readonly string[], shape: TextShape): string {
  return (shape.bom ? "\uFEFF" : "") + lines.join(shape.eol) + (shape.finalNewline && lines.length > 0 ? shape.eol : "");
}

/** Substring occurrences (overlapping ones counted). */
function occurrences(haystack: string, needle: string): number {
  if (needle === "") return haystack.length + 1;
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** The pairs and the text expected after each (BOM-stripped old lines in, file texts out). */
export function toEditPairs(oldLines: readonly string[], diffHunks: readonly DiffHunk[], shape: TextShape): { pairs: EditPair[]; expected: string[] } {
  let current = [...oldLines];
  let delta = 0;
  let floor = 0;
  const pairs: EditPair[] = [];
  const expected: string[] = [];
  diffHunks.forEach((hunk, index) => {
    const position = hunk.oldStart + delta;
    const changed = hunk.lines.map((line, at) => (line.kind === "context" ? -1 : at)).filter((at) => at !== -1);
    const first = changed[0] as number;
    const last = changed[changed.length - 1] as number;
    const oldBefore = hunk.lines.slice(0, first).filter((line) => line.kind !== "add").length;
    const span = hunk.lines.slice(first, last + 1);
    const replacement = span.filter((line) => line.kind !== "remove").map((line) => line.text);
    const changedStart = position + oldBefore;
    const changedEnd = changedStart + span.filter((line) => line.kind !== "add").length;
    // The next hunk's old lines, where they are in the current text: growth stops there.
    const ceiling = diffHunks[index + 1] ? (diffHunks[index + 1] as DiffHunk).oldStart + delta : current.length;
    let start = changedStart;
    let end = changedEnd;
    const grow = (): boolean => {
      const before = start > floor;
      const after = end < ceiling;
      if (before) start--;
      if (after) end++;
      return before || after;
    };
    // Neither side may be empty: a deleted line takes a neighbour along, so is an inserted one.
    if (start === end || replacement.length === 0) grow();
    const newLines = () => [...current.slice(start, changedStart), ...replacement, ...current.slice(changedEnd, end)];
    const text = current.join("\n");
    // An empty old_string (one empty line) matches everywhere: it grows too.
    const ambiguous = () => {
      const old = current.slice(start, end).join("\n");
      return old === "" || occurrences(text, old) > 1;
    };
    while (ambiguous() && grow()) {}
    const next = newLines();
    pairs.push({ old_string: current.slice(start, end).join("\n"), new_string: next.join("\n") });
    current = [...current.slice(0, start), ...next, ...current.slice(end)];
    delta += replacement.length - (changedEnd - changedStart);
    floor = start + next.length;
    expected.push(renderLines(current, shape));
  });
  return { pairs, expected };
}
