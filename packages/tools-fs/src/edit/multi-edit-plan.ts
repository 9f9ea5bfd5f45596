/**
 * Edit's multi-edit form: several `old_string`/`new_string` pairs applied in
 * order to one file, all or none. Each edit is matched (exact, then the
 * tolerant passes, as the single form) on the text the earlier edits left,
 * must match once unless its `replace_all`, and may not touch text an
 * earlier edit wrote (see written-regions.ts). Any failure throws before
 * anything is written, naming the edit (1-based).
 *
 * The text between edits is copied once per edit but the last (whose pieces
 * are written as they are), into two buffers used in turn ({@link TwoBuffers}):
 * fresh memory costs more to touch the first time than to copy into again.
 */
import { ToolError } from "@agent-tools/core";
import { type LineEndingCounts, countLineEndings, linesFromLineFeeds } from "../shared/line-ending-count.js";
import type { EditItem } from "./edit-form.js";
import { editPieces, findEditMatches } from "./edit-match.js";
import { type EditPlanRequest, type PlannedEdit, checkEditable } from "./edit-plan.js";
import type { EditMatch, MatchStrategy } from "./match-types.js";
import { WrittenRegions } from "./written-regions.js";

/** What {@link planMultiEdit} works on: an Edit plan request with `edits` in place of one pair. */
export type MultiEditPlanRequest<S extends { mtimeMs: number; size: number }> = Omit<EditPlanRequest<S>, "input"> & { edits: readonly EditItem[] };

/** What one edit of a multi-edit did. */
export interface EditOutcome {
  replacements: number;
  matchStrategy: MatchStrategy;
}

/** A multi-edit ready to commit: `replacements` is the total, `strategy` the first edit's. */
export interface PlannedMultiEdit extends PlannedEdit {
  edits: EditOutcome[];
  /** The buffer the pieces are views of when it is not the file's content (after two edits or more): this plan's own. */
  backing?: Buffer;
}

/** Line feeds in a latin1 byte string. */
function lineFeedsIn(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

/**
 * Checks the file (as {@link planEdit}), then applies `edits` in order on
 * the bytes. Refuses with `binary_file`, `stale_file`, `cancelled`,
 * `edit_no_match`, `edit_ambiguous` or `conflict` (an edit touching text an
 * earlier one wrote), each naming the edit.
 */
export async function planMultiEdit<S extends { mtimeMs: number; size: number }>(request: MultiEditPlanRequest<S>): Promise<PlannedMultiEdit> {
  const { edits, file, content, context } = request;
  const display = file.displayPath;
  const { autoRead, lineEndingCounts, oldLineFeeds } = await checkEditable(request);
  const total = edits.length;
  const written = new WrittenRegions();
  const outcomes: EditOutcome[] = [];
  let current: Buffer = content.bytes;
  let pieces: Buffer[] = [current];
  let lineFeedDelta = 0;
  const buffers = new TwoBuffers();
  for (let index = 0; index < total; index += 1) {
    if (context.signal.aborted) throw new ToolError("cancelled", "Cancelled: the host aborted this call before it finished.");
    const edit = edits[index]!;
    const number = index + 1;
    if (index > 0) current = buffers.concat(pieces);
    let counts: LineEndingCounts | undefined;
    const text = current;
    const result = findEditMatches(current, edit.old_string, edit.new_string, {
      lineEndingCounts: index === 0 ? lineEndingCounts : () => (counts ??= file.countLineEndings(text)),
      prescanned: index === 0 ? request.prescanned : undefined,
    });
    const which = `edit ${number} of ${total}`;
    const after = index === 0 ? "" : ` as edit${index === 1 ? " 1" : `s 1-${index}`} left it`;
    if (!result) {
      throw new ToolError(
        "edit_no_match",
        `Edit failed: ${which}: old_string was not found in ${display}${after} (also tried ignoring line endings, trailing whitespace and indentation). Nothing was written. Read the file again and copy that old_string verbatim from the current content (without line-number prefixes), or locate it with Grep.`,
        { details: { path: display, edit: number } },
      );
    }
    const found = result.matches.length;
    if (found > 1 && !edit.replace_all) {
      throw new ToolError(
        "edit_ambiguous",
        `Edit failed: ${which}: old_string matched ${found} locations in ${display}${after}. Nothing was written. Extend that old_string with surrounding lines so it matches exactly one location, or set replace_all=true on that edit to replace all ${found}.`,
        { details: { path: display, edit: number, matches: found, matchStrategy: result.strategy } },
      );
    }
    const applied = edit.replace_all ? result.matches : result.matches.slice(0, 1);
    const earlier = written.clash(applied);
    if (earlier !== undefined) {
      throw new ToolError(
        "conflict",
        `Edit failed: ${which} overlaps edit ${earlier}: its old_string matches text edit ${earlier} wrote (or joins text around what edit ${earlier} deleted) in ${display}. Nothing was written. Merge the two into one edit, or give edit ${number} an old_string outside edit ${earlier}'s change.`,
        { details: { path: display, edit: number, overlapsEdit: earlier } },
      );
    }
    lineFeedDelta += lineFeedChange(current, applied);
    pieces = editPieces(current, applied, true);
    written.apply(applied, number);
    outcomes.push({ replacements: applied.length, matchStrategy: result.strategy });
  }
  const finalPieces = pieces;
  const countLines = () => {
    let size = 0;
    let lastByte = -1;
    for (const piece of finalPieces) {
      size += piece.length;
      if (piece.length > 0) lastByte = piece[piece.length - 1]!;
    }
    return linesFromLineFeeds(oldLineFeeds() + lineFeedDelta, size, lastByte);
  };
  const replacements = outcomes.reduce((sum, outcome) => sum + outcome.replacements, 0);
  const plan: PlannedMultiEdit = { pieces: finalPieces, countLines, replacements, strategy: outcomes[0]!.matchStrategy, autoRead, edits: outcomes };
  if (current !== content.bytes) plan.backing = current;
  return plan;
}

/** How many line feeds replacing `matches` in `content` adds (negative: removes). */
function lineFeedChange(content: Buffer, matches: readonly EditMatch[]): number {
  let change = 0;
  for (const match of matches) change += lineFeedsIn(match.replacement) - countLineEndings(content.subarray(match.start, match.end)).lf;
  return change;
}

/**
 * Two buffers written in turn: the text after edit k is copied into the one
 * that does not hold the text after edit k-1 (whose views are the pieces
 * being copied). Each grows when a text does not fit.
 */
class TwoBuffers {
  private readonly buffers: [Buffer | undefined, Buffer | undefined] = [undefined, undefined];
  private turn: 0 | 1 = 0;

  /** `pieces` joined into the buffer whose turn it is (a view of exactly their length). */
  concat(pieces: readonly Buffer[]): Buffer {
    let size = 0;
    for (const piece of pieces) size += piece.length;
    let target = this.buffers[this.turn];
    if (target === undefined || target.length < size) {
      // Some room to grow, so edits that insert text do not allocate again each time.
      target = Buffer.allocUnsafeSlow(size + (size >>> 4) + 64);
      this.buffers[this.turn] = target;
    }
    this.turn = this.turn === 0 ? 1 : 0;
    let offset = 0;
    for (const piece of pieces) offset += piece.copy(target, offset);
    return target.subarray(0, size);
  }
}
