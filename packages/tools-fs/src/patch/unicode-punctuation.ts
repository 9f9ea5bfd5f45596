/**
 * The Unicode punctuation models swap for ASCII (and back), compared as ASCII
 * by the hunk locator's `unicode-punctuation` pass: for the search only, the
 * file's bytes and the patch's added lines are never rewritten with it.
 * Works on latin1 byte strings of UTF-8 (one character per byte).
 */

// E2 80 80-8A: U+2000-200A spaces, 90-95: U+2010-2015 dashes,
// 98-9B: U+2018-201B single quotes, 9C-9F: U+201C-201F double quotes, A6: U+2026 ellipsis,
// AF: U+202F narrow no-break space; E2 81 9F: U+205F; E2 88 92: U+2212 minus; C2 A0: U+00A0; E3 80 80: U+3000.
const PUNCTUATION = /\xE2\x80[\x80-\x8A\x90-\x95\x98-\x9F\xA6\xAF]|\xE2\x81\x9F|\xE2\x88\x92|\xC2\xA0|\xE3\x80\x80/g;

function asciiOf(sequence: string): string {
  if (sequence === "\xE2\x88\x92") return "-";
  if (sequence.charCodeAt(0) !== 0xe2 || sequence.charCodeAt(1) !== 0x80) return " ";
  const last = sequence.charCodeAt(2);
  if (last <= 0x8a || last === 0xaf) return " ";
  if (last <= 0x95) return "-";
  if (last <= 0x9b) return "'";
  if (last <= 0x9f) return '"';
  return "...";
}

/**
 * `line` (latin1 bytes) with curly quotes (‘’‚‛ “”„‟), dashes (‐‑‒–—― and
 * the minus sign), Unicode spaces (no-break, en/em/thin/ideographic...) and
 * the ellipsis (…) as their ASCII forms. Letters, digits and `_` are never
 * changed, nor joined (nothing is dropped), which the line search relies on.
 *
 * @example
 * normalisePunctuation(Buffer.from("“a” – b…", "utf8").toString("latin1")); // '"a" - b...'
 */
export function normalisePunctuation(line: string): string {
  // Every sequence starts with a byte >= 0xC2: plain ASCII lines are returned as they are.
  for (let index = 0; index < line.length; index += 1) {
    if (line.charCodeAt(index) >= 0xc2) return line.replace(PUNCTUATION, asciiOf);
  }
  return line;
}
