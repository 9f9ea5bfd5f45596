/**
 * Turns a search query into full-text terms: normalised words, one phrase,
 * the words' regular inflections, fixed expansions for identity and
 * preference questions, and the terms of the trigram index (CJK runs and
 * longer words).
 */
import { inflectionsOf } from "./search-inflections.js";

/** Terms of one query, as {@link buildMemorySearchTerms} returns them. */
export interface MemorySearchTerms {
  /** For the word index: the quoted phrase (2+ words) first, then the words that are not stop words. */
  words: string[];
  /**
   * For the word index, asked together with `words`: the regular inflections
   * ({@link inflectionsOf}) of the words that are not names (a word written
   * with a capital letter after the query's first word is a name and kept as
   * written); none of `words` or the stop words.
   */
  inflections: string[];
  /** For the word index, asked separately and weighted lower: the terms of the fixed expansions the query matches (none of `words`). */
  expansions: string[];
  /** For the word index, asked only when nothing else matched: the query's stop words (none of `words`). */
  stopWords: string[];
  /**
   * For the trigram index: CJK runs (and, for a run longer than three
   * characters, its overlapping trigrams and Han bigrams) and non-CJK words
   * of at least 3 characters.
   */
  trigram: string[];
  /**
   * For the scan fallback: the query's words that are not stop words, split
   * on blanks only (so "node.js" or "c++" stay whole), without words of one
   * or two letters (a digit keeps a short word: "q7").
   */
  scan: string[];
  /** True when the query holds Han, Hiragana, Katakana or Hangul. */
  hasCjk: boolean;
}

/** Words left out of the word terms (kept inside the phrase); a single Latin letter (the `s` of "Kate's", the `t` of "don't") is one too. */
export const MEMORY_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an the and or but of to in on at for from by with about as is are was were be been am do does did i me my mine myself " +
    "you your we our us it its this that these those what which who whom whose how when where why can could should would will " +
    "shall may might must have has had not no so if then than there here any some all into onto out up he she him her they them their"
  ).split(" "),
);

/** True for a stop word of {@link MEMORY_STOP_WORDS} or a single Latin letter. */
export function isMemoryStopWord(token: string): boolean {
  return MEMORY_STOP_WORDS.has(token) || /^[a-z]$/.test(token);
}

/** One row of {@link MEMORY_QUERY_EXPANSIONS}: a question pattern and the terms it adds. */
export interface MemoryQueryExpansion {
  readonly id: string;
  /** Tested against the normalised query (lower case, words separated by single spaces). */
  readonly pattern: RegExp;
  readonly terms: readonly string[];
}

/**
 * Fixed expansions: questions about who the user is, what they like, where
 * they work or who the people around them are rarely share words with the
 * entry that answers them ("who am i" vs "Name: Ada", "who is my boss" vs
 * "Maria is Dan's manager"). Kept small and general.
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
  {
    id: "manager",
    pattern: /\b(?:boss|bosses|supervisor|supervisors|my manager|line manager|reports? to|report into)\b/,
    terms: ["manager", "boss", "supervisor", "lead"],
  },
  {
    id: "colleague",
    pattern: /\b(?:colleague|colleagues|coworker|coworkers|co worker|co workers|teammate|teammates)\b/,
    terms: ["colleague", "colleagues", "coworker", "coworkers", "teammate", "teammates"],
  },
  {
    id: "partner",
    pattern: /\b(?:partner|wife|husband|spouse|girlfriend|boyfriend)\b/,
    terms: ["partner", "wife", "husband", "spouse"],
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
 * words, then (in `inflections`) their regular inflections. The expansions
 * its question matches and its stop words are kept apart, for the
 * lower-weighted queries of the search; no duplicates.
 *
 * @example
 * buildMemorySearchTerms("Who am I?");
 * // { words: ['"who am i"'], inflections: [], expansions: ["name", "identity", ...], stopWords: ["who", "am", "i"], ... }
 * buildMemorySearchTerms("Kate's hobbies").inflections; // ["hobby"] ("kate" is a name, "s" a stop word)
 */
export function buildMemorySearchTerms(query: string): MemorySearchTerms {
  const normalized = normalizeSearchText(query);
  const tokens = normalized === "" ? [] : normalized.split(" ");
  const words: string[] = [];
  const add = (list: string[], term: string) => {
    if (term !== "" && !words.includes(term) && !list.includes(term)) list.push(term);
  };
  if (tokens.length >= 2) add(words, `"${tokens.join(" ")}"`);
  const content = tokens.filter((token) => !isMemoryStopWord(token));
  for (const token of content) add(words, token);
  const names = nameTokens(query);
  const inflections: string[] = [];
  for (const token of content) {
    if (names.has(token)) continue;
    for (const form of inflectionsOf(token)) if (!isMemoryStopWord(form)) add(inflections, form);
  }
  const expansions: string[] = [];
  for (const expansion of MEMORY_QUERY_EXPANSIONS) {
    if (expansion.pattern.test(normalized)) for (const term of expansion.terms) add(expansions, term);
  }
  const stopWords: string[] = [];
  for (const token of tokens) if (isMemoryStopWord(token)) add(stopWords, token);
  return { words, inflections, expansions, stopWords, trigram: trigramTerms(content), scan: scanNeedles(query), hasCjk: hasCjkText(normalized) };
}

const CAPITALISED_WORD = /\p{Lu}[\p{L}\p{M}\p{N}]*/gu;

/** Normalised tokens of the words written with a capital letter, except the query's first word (a question's own capital). */
function nameTokens(query: string): Set<string> {
  const names = new Set<string>();
  const first = query.search(/[\p{L}\p{N}]/u);
  for (const match of query.matchAll(CAPITALISED_WORD)) {
    if (match.index === first) continue;
    for (const token of normalizeSearchText(match[0]).split(" ")) if (token !== "") names.add(token);
  }
  return names;
}

const HAN_PAIR = /^\p{Script=Han}{2}$/u;

function trigramTerms(tokens: readonly string[]): string[] {
  const terms: string[] = [];
  const add = (term: string) => {
    if (!terms.includes(term)) terms.push(term);
  };
  for (const token of tokens) {
    for (const cjk of token.match(CJK_RUN) ?? []) {
      add(cjk);
      // A sentence rarely appears whole in an entry: its overlapping trigrams and Han bigrams (the key words) do.
      const characters = [...cjk];
      if (characters.length <= 3) continue;
      for (let index = 0; index + 3 <= characters.length; index += 1) add(characters.slice(index, index + 3).join(""));
      for (let index = 0; index + 2 <= characters.length; index += 1) {
        const pair = characters.slice(index, index + 2).join("");
        if (HAN_PAIR.test(pair)) add(pair);
      }
    }
    for (const rest of token.split(CJK_RUN)) {
      if ([...rest].length >= TRIGRAM_MIN_CHARS) add(rest);
    }
  }
  return terms;
}

const SHORT_LETTERS = /^\p{L}{1,2}$/u;

function scanNeedles(query: string): string[] {
  const needles: string[] = [];
  for (const raw of query.split(/\s+/)) {
    const needle = raw.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (needle === "" || SHORT_LETTERS.test(needle) || MEMORY_STOP_WORDS.has(normalizeSearchText(needle))) continue;
    if (!needles.includes(needle)) needles.push(needle);
  }
  return needles;
}
