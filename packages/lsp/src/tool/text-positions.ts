/**
 * Positions between what the model sees and what LSP counts. The model
 * reads 1-based lines and 1-based characters of the line as Read shows
 * them (a character is a Unicode code point: an emoji is one); LSP counts
 * 0-based lines and UTF-16 code units. Lines end at `\n`, `\r\n` or `\r`,
 * as LSP splits them.
 */

/** A 0-based LSP position. */
export interface LspPosition {
  readonly line: number;
  readonly character: number;
}

/** The lines of a text, split as LSP splits them (without their line breaks). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * The LSP position of a 1-based line and character; a character past the
 * end of the line lands at its end, a line past the end of the file at the
 * start of the line after the last one (the server then answers nothing).
 */
export function toLspPosition(lines: readonly string[], line: number, character: number): LspPosition {
  const text = lines[line - 1];
  if (text === undefined) return { line: line - 1, character: 0 };
  let units = 0;
  let seen = 0;
  for (const codePoint of text) {
    if (seen >= character - 1) break;
    units += codePoint.length;
    seen += 1;
  }
  return { line: line - 1, character: units };
}

/** The 1-based line and character of an LSP position (UTF-16 offsets inside a code point round down to it). */
export function fromLspPosition(lines: readonly string[], position: LspPosition): { line: number; character: number } {
  const text = lines[position.line];
  if (text === undefined) return { line: position.line + 1, character: position.character + 1 };
  let units = 0;
  let seen = 0;
  for (const codePoint of text) {
    if (units + codePoint.length > position.character) break;
    units += codePoint.length;
    seen += 1;
  }
  return { line: position.line + 1, character: seen + 1 };
}
