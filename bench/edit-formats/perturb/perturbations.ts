/** The perturbation kinds of the benchmark, in the order the table prints them. */

/** A kind of mistake models make in an edit (`none`: the edit as a careful model writes it). */
export type Perturbation =
  | "none"
  | "lost-indentation"
  | "extra-indentation"
  | "tabs-for-spaces"
  | "crlf"
  | "trailing-spaces"
  | "curly-quotes"
  | "missing-context-line"
  | "stale-context-line"
  | "wrong-anchor"
  | "unknown-anchor";

/** Every perturbation, unperturbed first. */
export const PERTURBATIONS: readonly Perturbation[] = [
  "none",
  "lost-indentation",
  "extra-indentation",
  "tabs-for-spaces",
  "crlf",
  "trailing-spaces",
  "curly-quotes",
  "missing-context-line",
  "stale-context-line",
  "wrong-anchor",
  "unknown-anchor",
];

/** What each perturbation does, for the README and the printed legend. */
export const PERTURBATION_NOTES: Readonly<Record<Perturbation, string>> = {
  none: "the edit as written from the commit",
  "lost-indentation": "every non-blank line of a hunk (pair) loses the indentation common to its lines",
  "extra-indentation": "every non-blank line of a hunk (pair) gets one more level (4 spaces, or a tab in tab-indented code)",
  "tabs-for-spaces":
    "indentation spelt with tabs where the hunk (pair) has spaces, with 4 spaces where it has tabs (when its old lines are indented with one character only)",
  crlf: "the patch text (the strings) with CRLF line endings",
  "trailing-spaces": "trailing spaces on about half of the old lines (context and removed; old_string)",
  "curly-quotes": "straight quotes curled on the old lines (context and removed; old_string)",
  "missing-context-line": "one context line inside a hunk (pair) left out",
  "stale-context-line": "one context line as it may have read before (an identifier renamed)",
  "wrong-anchor": "the @@ anchor of one hunk names a header line that comes after the hunk (V4A only)",
  "unknown-anchor": "the @@ anchor of one hunk names a header no line of the file has (V4A only)",
};
