/**
 * Unicode White_Space over latin1 byte strings (one character per byte of
 * UTF-8), for Edit's trailing-whitespace and indentation passes.
 *
 * The set is Unicode's White_Space property, as Rust's `str::trim_end` uses:
 * U+0009-000D, U+0020, U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029,
 * U+202F, U+205F and U+3000 (IDEOGRAPHIC SPACE). JavaScript's `trimEnd`
 * strips the same set plus U+FEFF (ZERO WIDTH NO-BREAK SPACE, the BOM);
 * U+FEFF is not White_Space, so here it is content (a BOM at the start of a
 * file is handled separately by the passes).
 *
 * A character is recognised by its whole UTF-8 sequence, lead byte
 * included, so a continuation byte alone never counts as a space.
 */

/** ASCII White_Space: tab, LF, VT, FF, CR and space. */
const isAsciiSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/** Length of the multi-byte White_Space character (UTF-8) ending just before `end`, or 0. */
function spaceEndingAt(text: string, end: number, floor: number): number {
  const code = (at: number) => (at >= floor ? text.charCodeAt(at) : -1);
  const last = code(end - 1);
  if (last < 0x80 || last > 0xbf) return 0;
  const second = code(end - 2);
  // U+0085, U+00A0: C2 85, C2 A0
  if (second === 0xc2) return last === 0x85 || last === 0xa0 ? 2 : 0;
  const first = code(end - 3);
  // U+1680: E1 9A 80
  if (first === 0xe1) return second === 0x9a && last === 0x80 ? 3 : 0;
  // U+3000: E3 80 80
  if (first === 0xe3) return second === 0x80 && last === 0x80 ? 3 : 0;
  if (first !== 0xe2) return 0;
  // U+2000-200A, U+2028, U+2029, U+202F: E2 80 xx
  if (second === 0x80) return (last >= 0x80 && last <= 0x8a) || last === 0xa8 || last === 0xa9 || last === 0xaf ? 3 : 0;
  // U+205F: E2 81 9F
  return second === 0x81 && last === 0x9f ? 3 : 0;
}

/** Length of the multi-byte White_Space character (UTF-8) starting at `start`, or 0. */
function spaceStartingAt(text: string, start: number, ceiling: number): number {
  const lead = text.charCodeAt(start);
  if (lead !== 0xc2 && lead !== 0xe1 && lead !== 0xe2 && lead !== 0xe3) return 0;
  const width = lead === 0xc2 ? 2 : 3;
  if (start + width > ceiling) return 0;
  return spaceEndingAt(text, start + width, start) === width ? width : 0;
}

/** Where `text` ends once trailing White_Space is stripped (as Rust's `trim_end`). */
export function trimmedEnd(text: string): number {
  let end = text.length;
  for (;;) {
    if (end > 0 && isAsciiSpace(text.charCodeAt(end - 1))) end -= 1;
    else {
      const width = spaceEndingAt(text, end, 0);
      if (width === 0) return end;
      end -= width;
    }
  }
}

/** Where `text` starts once leading White_Space before `end` is stripped (as Rust's `trim_start`). */
export function trimmedStart(text: string, end = text.length, horizontalOnly = false): number {
  let start = 0;
  for (;;) {
    if (start >= end) return start;
    const code = text.charCodeAt(start);
    if (horizontalOnly ? code === 32 || code === 9 : isAsciiSpace(code)) start += 1;
    else {
      const width = spaceStartingAt(text, start, end);
      if (width === 0 || (horizontalOnly && isLineBreak(text, start))) return start;
      start += width;
    }
  }
}

/** Whether the character at `start` is U+0085, U+2028 or U+2029 (White_Space that breaks lines, never indentation). */
function isLineBreak(text: string, start: number): boolean {
  const lead = text.charCodeAt(start);
  if (lead === 0xc2) return text.charCodeAt(start + 1) === 0x85;
  return lead === 0xe2 && text.charCodeAt(start + 1) === 0x80 && (text.charCodeAt(start + 2) === 0xa8 || text.charCodeAt(start + 2) === 0xa9);
}
