/**
 * A line-based 3-way merge, as `git merge-file` does it: the changes of each
 * side against the base, applied together when they touch different lines.
 * Changes of both sides that overlap or touch (adjacent lines, or insertions
 * at the same place) are a conflict unless both sides made the same change.
 */
import { diffArrays } from "diff";

/** Beyond this many differing lines between the base and one side, the sides are not compared (a conflict). */
const MAX_EDIT_LENGTH = 20_000;

/** Base lines `[start, end)` replaced by `lines`, by one side. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
  readonly side: 0 | 1;
}

/** The changes turning `base` into `other`, in base order; undefined when they are too many to compute. */
function editsOf(base: readonly string[], other: readonly string[], side: 0 | 1): Edit[] | undefined {
  const changes = diffArrays([...base], [...other], { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) return undefined;
  const edits: Edit[] = [];
  let at = 0;
  let pending: { start: number; end: number; lines: string[] } | undefined;
  for (const change of changes) {
    if (change.added || change.removed) {
      pending ??= { start: at, end: at, lines: [] };
      if (change.added) pending.lines.push(...change.value);
      else {
        at += change.count;
        pending.end = at;
      }
      continue;
    }
    if (pending !== undefined) edits.push({ ...pending, side });
    pending = undefined;
    at += change.count;
  }
  if (pending !== undefined) edits.push({ ...pending, side });
  return edits;
}

/** Base lines `[start, end)` with one side's edits of a group applied. */
function applySide(base: readonly string[], start: number, end: number, edits: readonly Edit[], side: 0 | 1): string[] {
  const out: string[] = [];
  let at = start;
  for (const edit of edits) {
    if (edit.side !== side) continue;
    out.push(...base.slice(at, edit.start), ...edit.lines);
    at = edit.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/**
 * Merges `ours` and `theirs`, both derived from `base` (arrays of lines);
 * undefined on a conflict.
 *
 * @example
 * mergeLines(["a\n", "b\n", "c\n"], ["A\n", "b\n", "c\n"], ["a\n", "b\n", "C\n"]); // ["A\n", "b\n", "C\n"]
 */
export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] | undefined {
  const mine = editsOf(base, ours, 0);
  const other = editsOf(base, theirs, 1);
  if (mine === undefined || other === undefined) return undefined;
  const edits = [...mine, ...other].sort((left, right) => left.start - right.start || left.end - right.end || left.side - right.side);
  const out: string[] = [];
  let at = 0;
  for (let first = 0; first < edits.length; ) {
    const start = edits[first]!.start;
    let end = edits[first]!.end;
    let next = first + 1;
    // Edits that overlap or touch the group join it.
    while (next < edits.length && edits[next]!.start <= end) {
      end = Math.max(end, edits[next]!.end);
      next += 1;
    }
    const group = edits.slice(first, next);
    out.push(...base.slice(at, start));
    const sides = new Set(group.map((edit) => edit.side));
    if (sides.size === 1) out.push(...applySide(base, start, end, group, group[0]!.side));
    else {
      const left = applySide(base, start, end, group, 0);
      const right = applySide(base, start, end, group, 1);
      if (left.length !== right.length || left.some((line, index) => line !== right[index])) return undefined;
      out.push(...left);
    }
    at = end;
    first = next;
  }
  out.push(...base.slice(at));
  return out;
}
