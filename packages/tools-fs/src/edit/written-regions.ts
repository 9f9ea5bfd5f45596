/**
 * The places earlier edits of a multi-edit wrote, in the coordinates of the
 * text as those edits left it: the bytes each replacement inserted (an empty
 * range where an edit deleted text). A later edit whose match overlaps one
 * of them, or spans a deletion's join, would change text an earlier edit
 * wrote (in the original file's terms: the two edits' ranges overlap), and
 * is refused.
 *
 * Invariant: the regions are sorted by start and do not overlap.
 */
import type { EditMatch } from "./match-types.js";

/** Bytes an edit wrote (`start === end`: where it deleted text). */
interface WrittenRegion {
  start: number;
  end: number;
  /** The edit that wrote it, 1-based. */
  edit: number;
}

/** True when the match `[start, end)` touches the region (sharing a boundary does not). */
function clashes(match: { start: number; end: number }, region: WrittenRegion): boolean {
  if (region.start === region.end) return match.start < region.start && region.start < match.end;
  return match.start < region.end && region.start < match.end;
}

/** The regions written so far by the edits of one call. */
export class WrittenRegions {
  private regions: WrittenRegion[] = [];

  /** The earlier edit (1-based) one of `matches` (ascending) clashes with, if any. */
  clash(matches: readonly EditMatch[]): number | undefined {
    let index = 0;
    for (const match of matches) {
      // Regions ending before this match cannot clash with it or with a later match.
      while (index < this.regions.length && this.regions[index]!.end < match.start) index += 1;
      for (let probe = index; probe < this.regions.length && this.regions[probe]!.start <= match.end; probe += 1) {
        if (clashes(match, this.regions[probe]!)) return this.regions[probe]!.edit;
      }
    }
    return undefined;
  }

  /**
   * Records that edit `edit` (1-based) replaced `matches` (ascending, none
   * clashing): earlier regions move with the text around them, and each
   * replacement becomes a region.
   */
  apply(matches: readonly EditMatch[], edit: number): void {
    const merged: WrittenRegion[] = [];
    let shift = 0;
    let index = 0;
    for (const match of matches) {
      // Regions before the match move by what the earlier matches added or removed.
      while (index < this.regions.length && this.regions[index]!.end <= match.start) {
        const region = this.regions[index]!;
        merged.push({ start: region.start + shift, end: region.end + shift, edit: region.edit });
        index += 1;
      }
      const start = match.start + shift;
      merged.push({ start, end: start + match.replacement.length, edit });
      shift += match.replacement.length - (match.end - match.start);
    }
    for (; index < this.regions.length; index += 1) {
      const region = this.regions[index]!;
      merged.push({ start: region.start + shift, end: region.end + shift, edit: region.edit });
    }
    this.regions = merged;
  }
}
