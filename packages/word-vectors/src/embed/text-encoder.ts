/**
 * A text's vector from word vectors: the weighted average of its known
 * content words (stop words dropped), L2-normalised.
 *
 * Texts without a known content word fall back, in order, to:
 * 1. their known stop words ("who is she?"), weighted the same way;
 * 2. the hashed directions of their unknown words (see {@link addHashedVector}),
 *    so two texts made of the same unknown ids still match;
 * 3. for a text with no word at all (empty, punctuation only), one fixed
 *    unit vector, the hashed direction of the empty string.
 * Every vector returned is therefore unit length, never zero: stores and
 * cosine scans need no special case.
 */
import type { WordVectorTable } from "../load/word-vector-table.js";
import { STOP_WORDS } from "../text/stop-words.js";
import { tokenise } from "../text/tokenise.js";
import { addHashedVector } from "./hashed-vector.js";
import { type WordWeighting, wordWeights } from "./word-weights.js";

/** Settings of a {@link WordVectorTextEncoder}. */
export interface TextEncoderSettings {
  /** How words are weighted in the average. */
  readonly weighting: WordWeighting;
  /** SIF's `a`; default `SIF_PARAMETER`. */
  readonly sifParameter?: number;
}

/** Splits a word the table does not know at its hyphens (`ice-cream` -> `ice`, `cream`). */
function wordParts(word: string, rows: ReadonlyMap<string, number>): readonly string[] {
  if (rows.has(word) || !word.includes("-")) return [word];
  return word.split("-").filter((part) => part !== "");
}

/** Turns texts into unit vectors with one loaded {@link WordVectorTable}. */
export class WordVectorTextEncoder {
  private readonly weights: Float32Array;

  constructor(
    private readonly table: WordVectorTable,
    settings: TextEncoderSettings,
  ) {
    this.weights = wordWeights(settings.weighting, table.rowCount, table.fileWordCount, settings.sifParameter);
  }

  /** Length of every vector {@link WordVectorTextEncoder.encode} returns. */
  get dimension(): number {
    return this.table.dimension;
  }

  /**
   * The unit vector of `text`.
   *
   * @example
   * encoder.encode("I adore my dog"); // Float32Array(100), length 1
   */
  encode(text: string): Float32Array {
    const content: number[] = [];
    const stops: number[] = [];
    const unknown: string[] = [];
    for (const token of tokenise(text)) {
      for (const word of wordParts(token, this.table.rows)) {
        const row = this.table.rows.get(word);
        if (STOP_WORDS.has(word)) {
          if (row !== undefined) stops.push(row);
        } else if (row !== undefined) content.push(row);
        else unknown.push(word);
      }
    }
    const sum = new Float32Array(this.table.dimension);
    const rows = content.length > 0 ? content : stops;
    if (rows.length > 0) this.addRows(rows, sum);
    else if (unknown.length > 0) for (const word of unknown) addHashedVector(word, 1, sum);
    else addHashedVector("", 1, sum);
    return normalise(sum);
  }

  private addRows(rows: readonly number[], into: Float32Array): void {
    const { vectors, dimension } = this.table;
    for (const row of rows) {
      const weight = this.weights[row]!;
      const offset = row * dimension;
      for (let component = 0; component < dimension; component += 1) into[component] = into[component]! + weight * vectors[offset + component]!;
    }
  }
}

/** `vector` scaled to unit length in place; a zero vector (no known weight) becomes the empty-text vector. */
function normalise(vector: Float32Array): Float32Array {
  let squares = 0;
  for (const value of vector) squares += value * value;
  if (squares === 0) {
    addHashedVector("", 1, vector);
    return normalise(vector);
  }
  const scale = 1 / Math.sqrt(squares);
  for (let component = 0; component < vector.length; component += 1) vector[component] = vector[component]! * scale;
  return vector;
}
