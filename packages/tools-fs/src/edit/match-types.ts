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

/** The winning pass and all of its matches. */
export interface EditMatchResult {
  strategy: MatchStrategy;
  matches: EditMatch[];
}
