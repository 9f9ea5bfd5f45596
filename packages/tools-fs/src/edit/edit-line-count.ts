/**
 * The line count of an edited file without counting it again: the old
 * content's line feeds, minus those in the replaced ranges, plus those in
 * the replacements.
 */
import { countLineEndings, linesFromLineFeeds } from "../shared/line-ending-count.js";
import type { EditMatch } from "./match-types.js";

/** Line feeds in a latin1 byte string. */
function lineFeedsIn(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count += 1;
  return count;
}

/**
 * Lines of the new content (split inclusively of `\n`).
 *
 * @param content the old content
 * @param applied the matches that were applied (ascending)
 * @param oldLineFeeds the old content's LF count
 * @param newPieces the new content as pieces
 */
export function editedLineCount(content: Uint8Array, applied: readonly EditMatch[], oldLineFeeds: number, newPieces: readonly Uint8Array[]): number {
  let lineFeeds = oldLineFeeds;
  for (const match of applied) {
    lineFeeds -= countLineEndings(content.subarray(match.start, match.end)).lf;
    lineFeeds += lineFeedsIn(match.replacement);
  }
  let size = 0;
  let lastByte = -1;
  for (const piece of newPieces) {
    if (piece.length === 0) continue;
    size += piece.length;
    lastByte = piece[piece.length - 1]!;
  }
  return linesFromLineFeeds(lineFeeds, size, lastByte);
}

/** The LF count of content with `lines` lines (split inclusively of `\n`) whose last byte is `lastByte`. */
export function lineFeedsFromLines(lines: number, size: number, lastByte: number): number {
  if (size === 0) return 0;
  return lastByte === 10 ? lines : lines - 1;
}
