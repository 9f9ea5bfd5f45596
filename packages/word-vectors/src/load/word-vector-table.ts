/**
 * The in-memory form of a word-vector file: one `Float32Array` holding a row
 * per word and a map from word to row. Rows are the words' frequency ranks,
 * so row 0 is the most frequent word.
 */

/** Word vectors held in memory: `vectors[row * dimension + i]` is component `i` of the word at `row`. */
export interface WordVectorTable {
  /** Components of one word vector. */
  readonly dimension: number;
  /** Number of rows the table has room for (the vocabulary size asked for, at most the file's word count). */
  readonly rowCount: number;
  /** Number of words in the whole file (its `size`), for frequency estimates. */
  readonly fileWordCount: number;
  /** Row-major vectors, `rowCount * dimension` floats; rows of absent words stay zero. */
  readonly vectors: Float32Array;
  /** Word -> row (its frequency rank in the file). */
  readonly rows: ReadonlyMap<string, number>;
  /** Whether the loader stopped before the end of the file (the vectors section was in frequency order). */
  readonly stoppedEarly: boolean;
  /** Bytes of the file the scanner went through (up to the last entry it needed). */
  readonly bytesRead: number;
}
