/**
 * Light stemming on the query side: the regular English inflections of a
 * query word (plural and singular, `-ing`, `-ed`), asked together with the
 * word itself. The stores index words as written (SQLite FTS5 `unicode61`,
 * PostgreSQL `tsvector` of config `simple`, the in-memory index); expanding
 * the query instead of stemming the index keeps every backend identical and
 * needs no migration. Pure code, no I/O.
 */

/** Words shorter than this are not inflected. */
const MIN_WORD_CHARS = 3;
const VOWEL = /[aeiou]/;
/** Endings that take `-es` in the plural: `box` -> `boxes`, `church` -> `churches`. */
const SIBILANT_END = /(?:s|x|z|ch|sh)$/;

/**
 * The regular inflections of a lower-case ASCII word: its singular or plural
 * (`hobbies` <-> `hobby`, `games` <-> `game`, `boxes` <-> `box`), and for a
 * word ending in `-ing` or `-ed` its stem (`skiing` -> `ski`, `making` ->
 * `mak`, `make`, `stopped` -> `stop`), else its `-ing` and `-ed` forms
 * (`play` -> `playing`, `played`). Forms no entry holds cost nothing: the
 * word index simply finds nothing for them. Irregular forms are not guessed.
 * Empty for a word of fewer than 3 letters or with anything but `a`-`z`.
 *
 * @example
 * inflectionsOf("hobbies"); // ["hobby"]
 * inflectionsOf("skiing"); // ["skiings", "ski"]
 */
export function inflectionsOf(word: string): string[] {
  if (word.length < MIN_WORD_CHARS || !/^[a-z]+$/.test(word)) return [];
  const forms = new Set<string>();
  addNumberForm(word, forms);
  addVerbForms(word, forms);
  forms.delete(word);
  return [...forms];
}

/** Singular of a plural, plural of a singular (none for an `-ed` form). */
function addNumberForm(word: string, forms: Set<string>): void {
  if (word.endsWith("ies") && word.length > 4) forms.add(`${word.slice(0, -3)}y`);
  else if (word.endsWith("es") && SIBILANT_END.test(word.slice(0, -2))) forms.add(word.slice(0, -2));
  else if (word.endsWith("ed") && word.length > 4) return;
  else if (word.endsWith("s")) {
    if (!/(?:ss|us|is)$/.test(word) && word.length > MIN_WORD_CHARS) forms.add(word.slice(0, -1));
  } else if (/[^aeiou]y$/.test(word)) forms.add(`${word.slice(0, -1)}ies`);
  else if (SIBILANT_END.test(word)) forms.add(`${word}es`);
  else forms.add(`${word}s`);
}

/** The stem of an `-ing` / `-ed` form, or the `-ing` and `-ed` forms of a word without them. */
function addVerbForms(word: string, forms: Set<string>): void {
  if (word.endsWith("ing") && word.length > 5) addStem(word.slice(0, -3), forms);
  else if (word.endsWith("ied") && word.length > 4) forms.add(`${word.slice(0, -3)}y`);
  else if (word.endsWith("ed") && word.length > 4) addStem(word.slice(0, -2), forms);
  else if (!word.endsWith("s")) {
    forms.add(`${word.endsWith("e") ? word.slice(0, -1) : word}ing`);
    forms.add(word.endsWith("e") ? `${word}d` : `${word}ed`);
  }
}

/** A stem left by `-ing` / `-ed`: itself, without a doubled final consonant (`stopp` -> `stop`), or with the `e` it lost (`mak` -> `make`). */
function addStem(stem: string, forms: Set<string>): void {
  if (stem.length < 2 || !VOWEL.test(stem)) return;
  forms.add(stem);
  if (/([^aeiouslz])\1$/.test(stem)) forms.add(stem.slice(0, -1));
  else if (/[^aeiou][aeiou][^aeiouwxy]$/.test(stem) || /[^aeiou][vcgzs]$/.test(stem)) forms.add(`${stem}e`);
}
