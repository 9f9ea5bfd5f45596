/**
 * Splits English text into the words the vector table is keyed by: lower
 * case, diacritics folded (`Café` -> `cafe`), runs of letters and digits,
 * English contractions and possessives reduced to their stem (`dog's` ->
 * `dog`, `don't` -> `do` + `not`). Hyphenated words stay whole (`well-known`);
 * the embedder splits them when the table does not know the whole.
 */

const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4\u2032]/g;
const COMBINING_MARKS = /\p{M}+/gu;
const TOKEN = /[\p{L}\p{N}]+(?:['\-\u2010\u2011][\p{L}\p{N}]+)*/gu;
const HYPHENS = /[\u2010\u2011]/g;
/** Letters NFKD leaves whole. */
const LETTER_FOLDS: Readonly<Record<string, string>> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" };
const LETTER_FOLD_PATTERN = /[ßæœøłđðþı]/g;
/** Stems of `n't` contractions that are not the verb itself (`can't` -> `ca`). */
const NEGATED_STEMS: Readonly<Record<string, string>> = { ca: "can", wo: "will", sha: "shall", ai: "is" };
const CLITICS = ["'s", "'re", "'ve", "'ll", "'d", "'m"];

/** Lower case, diacritics and ligatures folded, typographic apostrophes made `'`. */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "")
    .toLowerCase()
    .replace(LETTER_FOLD_PATTERN, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(APOSTROPHES, "'")
    .replace(HYPHENS, "-");
}

function pushWithApostrophe(token: string, into: string[]): void {
  if (token.endsWith("n't")) {
    const stem = token.slice(0, -3);
    if (stem !== "") into.push(NEGATED_STEMS[stem] ?? stem);
    into.push("not");
    return;
  }
  const clitic = CLITICS.find((ending) => token.endsWith(ending));
  if (clitic !== undefined && token.length > clitic.length) {
    into.push(token.slice(0, -clitic.length));
    return;
  }
  // Names and elisions (o'neill, rock'n'roll): the letters joined.
  into.push(token.replaceAll("'", ""));
}

/**
 * The words of `text`, in order, stop words included.
 *
 * @example
 * tokenise("Zoë's café isn't open"); // ["zoe", "cafe", "is", "not", "open"]
 */
export function tokenise(text: string): string[] {
  const words: string[] = [];
  for (const match of foldText(text).matchAll(TOKEN)) {
    const token = match[0];
    if (token.includes("'")) pushWithApostrophe(token, words);
    else words.push(token);
  }
  return words;
}
