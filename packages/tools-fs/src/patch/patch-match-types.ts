/**
 * The types of the V4A hunk applier: a leaf module, so the applier, its
 * error and the ApplyPatch tool import them without an import circle.
 */
import type { LineEndingCounts } from "../shared/line-ending-count.js";

/**
 * How a hunk was located, strictest first: `exact` (the bytes of its old
 * lines), `line-endings` (CRLF vs LF ignored), `trailing-whitespace`,
 * `indentation` (a uniform shift, or tabs for spaces), `unicode-punctuation`
 * (curly quotes, dashes, Unicode spaces and the ellipsis compared as ASCII),
 * `stale-context` (one context line that matches nothing skipped, or one
 * line of the file missing from the context kept, the place unique),
 * `anchor-ignored` (an `@@` anchor that matches nothing dropped, the
 * place unique).
 */
export type PatchMatchStrategy = "exact" | "line-endings" | "trailing-whitespace" | "indentation" | "unicode-punctuation" | "stale-context" | "anchor-ignored";

/** Where one hunk applied. */
export interface PatchedHunk {
  /** 1-based number of the hunk within its file's operation. */
  hunk: number;
  matchStrategy: PatchMatchStrategy;
  /** 1-based line of the original file where the hunk's old lines start (where its lines were inserted, for a hunk without old lines). */
  startLine: number;
}

/** A file with every hunk applied. */
export interface PatchedFile {
  /** The new content in order: views of the old content and the rewritten regions. */
  pieces: Buffer[];
  /** One entry per hunk, in order. */
  hunks: PatchedHunk[];
}

/** Options of `applyPatchHunks`. */
export interface ApplyPatchHunksOptions {
  /** The path as the model wrote it, for messages. */
  displayPath: string;
  /** The LF and CRLF counts of the content when the caller has them (the dominant line ending of added lines); default: counted here. */
  lineEndingCounts?: () => LineEndingCounts;
}
