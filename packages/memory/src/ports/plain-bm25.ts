/**
 * A plain BM25 over word tokens: the in-memory store's word index and the
 * baseline the search benchmark measures the database indexes against.
 * Pure code, no I/O.
 */

/**
 * The combining diacritical marks block (accents on Latin, Greek and Cyrillic
 * letters). Other marks (kana voicing, Indic vowel signs) are part of the
 * letter and stay.
 */
const COMBINING_DIACRITICS = /[\u0300-\u036f]/gu;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Folds text for indexing and matching: compatibility decomposition (NFKD),
 * combining diacritics removed (so `café` becomes `cafe`), recomposed (NFC) and
 * lower-cased. Every index stores folded text and every query is folded the
 * same way, so all backends agree on what matches.
 *
 * @example
 * foldText("Crème Brûlée"); // "creme brulee"
 */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_DIACRITICS, "").normalize("NFC").toLowerCase();
}

/**
 * Splits text into folded word tokens: runs of letters, marks and digits (a run of
 * CJK characters without spaces is one token, as SQLite's unicode61
 * tokenizer sees it).
 *
 * @example
 * tokenizeWords("Dark-mode, café!"); // ["dark", "mode", "cafe"]
 */
export function tokenizeWords(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/**
 * SQLite FTS5's IDF of a term held by `documentFrequency` of `count` documents:
 * `ln((N - n + 0.5) / (n + 0.5))`, and 1e-6 where that is not positive.
 */
export function fts5Idf(count: number, documentFrequency: number): number {
  const idf = Math.log((count - documentFrequency + 0.5) / (documentFrequency + 0.5));
  return idf > 0 ? idf : 1e-6;
}

/** Tuning of {@link PlainBm25Index}; the usual defaults. */
export interface PlainBm25Options {
  /** Term-frequency saturation; default 1.2. */
  readonly k1?: number;
  /** Length normalisation; default 0.75. */
  readonly b?: number;
  /**
   * The IDF: `okapi` (default) is `ln(1 + (N - n + 0.5) / (n + 0.5))`;
   * `fts5` is SQLite FTS5's `ln((N - n + 0.5) / (n + 0.5))`, at least 1e-6.
   */
  readonly idf?: "okapi" | "fts5";
  /** Tokens added to every document's length (FTS5 counts a column of its own that no query scores); default 0. */
  readonly extraLength?: number;
}

/** One hit of {@link PlainBm25Index.search}: higher score is better. */
export interface PlainBm25Hit<Id> {
  readonly id: Id;
  readonly score: number;
}

/**
 * An inverted index with Okapi BM25 ranking (IDF `ln(1 + (N - n + 0.5) / (n + 0.5))`).
 * A query is a list of terms, each a list of tokens: one token is a word, several
 * are a phrase that must appear in order. Terms are OR-ed and their scores summed.
 *
 * @example
 * const index = new PlainBm25Index<string>();
 * index.add("a", "dark mode everywhere");
 * index.search([["dark", "mode"], ["light"]]); // [{ id: "a", score: ... }]
 */
export class PlainBm25Index<Id> {
  readonly #k1: number;
  readonly #b: number;
  readonly #fts5Idf: boolean;
  readonly #extraLength: number;
  readonly #documents = new Map<Id, readonly string[]>();
  readonly #postings = new Map<string, Map<Id, number>>();
  #totalLength = 0;

  constructor(options: PlainBm25Options = {}) {
    this.#k1 = options.k1 ?? 1.2;
    this.#b = options.b ?? 0.75;
    this.#fts5Idf = options.idf === "fts5";
    this.#extraLength = options.extraLength ?? 0;
  }

  /** Number of documents. */
  get size(): number {
    return this.#documents.size;
  }

  /** Adds or replaces a document. */
  add(id: Id, text: string): void {
    this.remove(id);
    const tokens = tokenizeWords(text);
    this.#documents.set(id, tokens);
    this.#totalLength += tokens.length;
    for (const token of tokens) {
      let posting = this.#postings.get(token);
      if (posting === undefined) {
        posting = new Map();
        this.#postings.set(token, posting);
      }
      posting.set(id, (posting.get(id) ?? 0) + 1);
    }
  }

  /** Removes a document; absent ids are ignored. */
  remove(id: Id): void {
    const tokens = this.#documents.get(id);
    if (tokens === undefined) return;
    this.#documents.delete(id);
    this.#totalLength -= tokens.length;
    for (const token of new Set(tokens)) {
      const posting = this.#postings.get(token);
      posting?.delete(id);
      if (posting?.size === 0) this.#postings.delete(token);
    }
  }

  /**
   * Every document holding any term, best first (ties keep insertion order).
   * `limit` cuts the result; default all.
   */
  search(terms: readonly (readonly string[])[], limit = Number.POSITIVE_INFINITY): PlainBm25Hit<Id>[] {
    const count = this.#documents.size;
    if (count === 0) return [];
    const averageLength = (this.#totalLength + this.#extraLength * count) / count || 1;
    const scores = new Map<Id, number>();
    for (const term of terms) {
      const frequencies = this.#termFrequencies(term);
      if (frequencies.size === 0) continue;
      const idf = this.#fts5Idf ? fts5Idf(count, frequencies.size) : Math.log(1 + (count - frequencies.size + 0.5) / (frequencies.size + 0.5));
      for (const [id, frequency] of frequencies) {
        const length = (this.#documents.get(id)?.length ?? 0) + this.#extraLength;
        const norm = frequency + this.#k1 * (1 - this.#b + (this.#b * length) / averageLength);
        scores.set(id, (scores.get(id) ?? 0) + (idf * frequency * (this.#k1 + 1)) / norm);
      }
    }
    const hits = [...scores].map(([id, score]) => ({ id, score }));
    hits.sort((left, right) => right.score - left.score);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }

  /** Occurrences of one word or phrase per document that holds it. */
  #termFrequencies(term: readonly string[]): Map<Id, number> {
    const first = term[0];
    if (first === undefined) return new Map();
    const posting = this.#postings.get(first);
    if (posting === undefined) return new Map();
    if (term.length === 1) return posting;
    const frequencies = new Map<Id, number>();
    for (const id of posting.keys()) {
      const tokens = this.#documents.get(id) ?? [];
      let occurrences = 0;
      for (let start = 0; start + term.length <= tokens.length; start += 1) {
        let matches = true;
        for (let offset = 0; offset < term.length; offset += 1) {
          if (tokens[start + offset] !== term[offset]) {
            matches = false;
            break;
          }
        }
        if (matches) occurrences += 1;
      }
      if (occurrences > 0) frequencies.set(id, occurrences);
    }
    return frequencies;
  }
}
