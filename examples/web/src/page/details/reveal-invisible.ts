/**
 * Makes characters that change how text displays without showing themselves
 * visible: bidirectional controls (which can make `rm -rf /tmp/x` display
 * reordered) and zero-width characters become `\u{XXXX}` escapes. Used where
 * a person decides on what they read (the approval prompt).
 */

/** Bidi embeddings, overrides and isolates, directional marks, zero-width characters and the BOM. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;

/**
 * `text` with every bidi control and zero-width character replaced by its
 * escape.
 *
 * @example
 * revealInvisible("a\u202eb"); // "a\\u{202E}b"
 */
export function revealInvisible(text: string): string {
  return text.replace(INVISIBLE, (character) => `\\u{${character.codePointAt(0)?.toString(16).toUpperCase().padStart(4, "0")}}`);
}
