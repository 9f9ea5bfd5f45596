/**
 * Turns a search query into full-text terms: normalised words, one phrase,
 * fixed expansions for identity and preference questions, and the terms of
 * the trigram index (CJK runs and longer words).
 */

/** Terms of one query, as {@link buildMemorySearchTerms} returns them. */
export interface MemorySearchTerms {
  /** For the word index: the quoted phrase (2+ words) first, then words, then expansions. */
  words: string[];
  /** For the trigram index: CJK runs and non-CJK words of at least 3 characters. */
  trigram: string[];
  /** True when the query holds Han, Hiragana, Katakana or Hangul. */
  hasCjk: boolean;
}

/** Words left out of the word terms (kept inside the phrase). */
export const MEMORY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but of to in on at for from by with about as is are was were be been am do does did i me my mine myself " +
    "you your we our us it its this that these those what which who whom whose how when where why can could should would will " +
    "shall may might must have has had not no so if then than there here any some all"
  ).split(" "),
);

/** One row of {@link MEMORY_QUERY_EXPANSIONS}: a question pattern and the terms it adds. */
export interface MemoryQueryExpansion {
  readonly id: string;
  /** Tested against the normalised query (lower case, words separated by single spaces). */
  readonly pattern: RegExp;
  readonly terms: readonly string[];
}

/**
 * Fixed expansions: questions about who the user is or what they like rarely
 * share words with the entry that answers them ("who am i" vs "Name: Ada").
 */
export const MEMORY_QUERY_EXPANSIONS: readonly MemoryQueryExpansion[] = [
  {
    id: "identity",
    pattern: /\b(?:who am i|who i am|my name|what s my name|call me|about me|know about me|remember about me)\b/,
    terms: ["name", "identity", "called", "user", "profile"],
  },
  {
    id: "preference",
    pattern: /\b(?:prefer|prefers|preferred|preference|preferences|favorite|favourite|favorites|favourites|like|likes|dislike|dislikes|love|hate)\b/,
    terms: ["preference", "preferences", "prefer", "prefers", "favorite", "like", "likes", "dislike"],
  },
  {
    id: "work",
    pattern: /\b(?:where do i work|my job|my role|my company|my team|my work)\b/,
    terms: ["work", "job", "role", "company", "team"],
  },
];

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;
const TRIGRAM_MIN_CHARS = 3;

/** True when the text holds Han, Hiragana, Katakana or Hangul characters. */
export function hasCjkText(text: string): boolean {
  return CJK_CHAR.test(text);
}

/**
 * Lower case, compatibility forms folded (full-width letters), Latin
 * diacritics dropped (`é` -> `e`), punctuation turned into spaces. Kana voice
 * marks and Hangul syllables are kept whole.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize("NFKC")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, " ")
    .trim();
}

/**
 * Builds the terms of a query. Word terms are OR-ed by the store: the whole
 * query as a quoted phrase (when it has 2+ words), then its words minus stop
 * words (all words when only stop words remain), then the expansions its
 * question matches; no duplicates.
 *
 * @example
 * buildMemorySearchTerms("Who am I?");
 * // { words: ['"who am i"', "who", "am", "i"...] } -> see the tests for the exact terms
 */
export function buildMemorySearchTerms(query: string): MemorySearchTerms {
  const normalized = normalizeSearchText(query);
  const tokens = normalized === "" ? [] : normalized.split(" ");
  const words: string[] = [];
  const add = (term: string) => {
    if (term !== "" && !words.includes(term)) words.push(term);
  };
  if (tokens.length >= 2) add(`"${tokens.join(" ")}"`);
  const content = tokens.filter((token) => !MEMORY_STOP_WORDS.has(token));
  for (const token of content.length > 0 ? content : tokens) add(token);
  for (const expansion of MEMORY_QUERY_EXPANSIONS) {
    if (expansion.pattern.test(normalized)) for (const term of expansion.terms) add(term);
  }
  return { words, trigram: trigramTerms(content), hasCjk: hasCjkText(normalized) };
}

function trigramTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  for (const token of tokens) {
    for (const cjk of token.match(CJK_RUN) ?? []) if (!terms.includes(cjk)) terms.push(cjk);
    for (const rest of token.split(CJK_RUN)) {
      if ([...rest].length >= TRIGRAM_MIN_CHARS && !terms.includes(rest)) terms.push(rest);
    }
  }
  return terms;
}
