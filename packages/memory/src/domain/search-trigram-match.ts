import { hasCjkText, normalizeSearchText } from "./search-query.js";

/**
 * Whether a trigram-index hit really holds one of the query's terms. The
 * trigram index finds any substring, so a three-letter Latin word such as
 * "cli" also matches "clippy"; such a term counts only where it stands as a
 * word of its own (a plural "s" allowed).
 */

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** True when `term` occurs in `text` with no letter or digit on either side (an "s" may follow). */
function occursAsWord(text: string, term: string): boolean {
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + 1)) {
    const before = at === 0 ? "" : text[at - 1]!;
    let end = at + term.length;
    if (text[end] === "s") end += 1;
    const after = text[end] ?? "";
    if (!LETTER_OR_DIGIT.test(before) && !LETTER_OR_DIGIT.test(after)) return true;
  }
  return false;
}

/**
 * Keeps a trigram hit unless the only terms it contains are three-letter
 * Latin terms found inside longer words. CJK terms and terms of four or more
 * characters count wherever they occur. A hit whose text holds none of the
 * terms at all (a folding the check does not reproduce) is kept.
 *
 * @example
 * isTrigramMatch("lint-setup\nclippy for rust", ["cli"]); // false
 * isTrigramMatch("the cli is written in go", ["cli"]); // true
 */
export function isTrigramMatch(text: string, terms: readonly string[]): boolean {
  const normalized = ` ${normalizeSearchText(text)} `;
  let containsAny = false;
  for (const term of terms) {
    const needle = normalizeSearchText(term);
    if (needle === "" || !normalized.includes(needle)) continue;
    containsAny = true;
    if (hasCjkText(needle) || [...needle].length !== 3) return true;
    if (occursAsWord(normalized, needle)) return true;
  }
  return !containsAny;
}
