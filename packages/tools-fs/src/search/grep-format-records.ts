/**
 * Grep's fast path for a file whose every matching line is on the page:
 * ripgrep's `N:text` records are turned into `path:N: text` lines in one
 * loop over the bytes, without looking each line up (see
 * {@link GrepFileHits.matchRecords}).
 */
import { GREP_CLIP_BYTES, GREP_LINE_CHARS, clipLine } from "./grep-result.js";
import { type GrepTextBuilder, hasSurrogate } from "./grep-text-builder.js";

const LF = 10;
const CR = 13;
const COLON = 58;

/**
 * Writes the records `buffer[start, end)` (`N:text\n` each) as lines
 * `name:N: text`, a line feed before each line unless `first`.
 * Texts are written as the line-by-line renderer writes them: line endings
 * trimmed, lines over {@link GREP_LINE_CHARS} characters clipped. Returns
 * how many lines it wrote, or -1 when a record is not `N:text` or a clipped
 * line holds a surrogate (then what it wrote must be rolled back, which
 * {@link GrepTextBuilder.rollback} can do since only bytes and well-formed
 * strings were written, and the file rendered line by line).
 *
 * @param name the display path as UTF-8 bytes
 * @param records the records: `buffer[start, end)`
 */
export function writeMatchRecords(builder: GrepTextBuilder, name: Buffer, records: { buffer: Buffer; start: number; end: number }, first: boolean): number {
  const { buffer: source, start, end } = records;
  let lines = 0;
  let position = start;
  while (position < end) {
    let newline = source.indexOf(LF, position);
    if (newline === -1 || newline > end) newline = end;
    let digitsEnd = position;
    while (digitsEnd < newline) {
      const byte = source[digitsEnd]!;
      if (byte < 48 || byte > 57) break;
      digitsEnd += 1;
    }
    if (digitsEnd === position || source[digitsEnd] !== COLON) return -1;
    if (!first || lines > 0) builder.writeAscii("\n");
    builder.writeBytes(name, 0, name.length);
    builder.writeAscii(":");
    builder.writeBytes(source, position, digitsEnd + 1);
    builder.writeAscii(" ");
    const textStart = digitsEnd + 1;
    let textEnd = newline;
    while (textEnd > textStart && (source[textEnd - 1] === CR || source[textEnd - 1] === LF)) textEnd -= 1;
    if (textEnd - textStart <= GREP_LINE_CHARS) builder.writeBytes(source, textStart, textEnd);
    else {
      const clipped = clipLine(source.toString("utf8", textStart, Math.min(textEnd, textStart + GREP_CLIP_BYTES)));
      // A clip inside a surrogate pair leaves text UTF-8 cannot carry, which the builder keeps apart (no rollback past it).
      if (hasSurrogate(clipped)) return -1;
      builder.writeString(clipped);
    }
    lines += 1;
    position = newline + 1;
  }
  return lines;
}
