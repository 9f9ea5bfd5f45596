/**
 * The types Edit's matcher passes share: a leaf module, so edit-match.ts and
 * the line passes (line-match.ts, line-match-bytes.ts) import them without an
 * import circle.
 */

/** Which pass matched. */
export type MatchStrategy = "exact" | "line-endings" | "trailing-whitespace" | "indentation";

/** One match: a byte range of the file and the bytes (latin1 string) replacing it. */
export interface EditMatch {
  start: number;
  end: number;
  /** Replacement bytes as a latin1 string. */
  replacement: string;
}

/** One edit as the matcher passes see it: latin1 byte strings and the line ending new lines are rendered in. */
export interface EditBytes {
  /** `old_string` as a latin1 byte string. */
  oldBytes: string;
  /** `new_string` as a latin1 byte string. */
  newBytes: string;
  /** The file's dominant line ending (asked only when needed). */
  eolOf: () => "\r\n" | "\n";
}

/** A line-based tolerant pass of an edit. */
export interface LinePass extends EditBytes {
  pass: "trailing-whitespace" | "indentation";
}

/** The winning pass and all of its matches. */
export interface EditMatchResult {
  strategy: MatchStrategy;
  matches: EditMatch[];
}
