/**
 * How much each word counts in a text's vector. Frequent words say little
 * about a text, so the smooth inverse frequency weighting (SIF, Arora et al.
 * 2017) gives a word `a / (a + p(w))`. The file has no counts, only
 * frequency ranks, so `p(w)` is estimated from the rank by Zipf's law:
 * `p(rank r) = 1 / ((r + 1) * H(N))`, `H(N)` the harmonic number of the
 * file's word count.
 */

/** How word vectors are weighted in a text's average: `sif` (rare words count more) or `uniform` (plain average). */
export type WordWeighting = "sif" | "uniform";

/** The weightings {@link createWordVectorEmbedder} accepts. */
export const WORD_WEIGHTINGS: readonly WordWeighting[] = ["sif", "uniform"];

/** SIF's `a`: words more frequent than about `a` of all tokens get weights below one half. */
export const SIF_PARAMETER = 3e-3;

function harmonicNumber(count: number): number {
  // ln(n) + gamma + 1/(2n): exact to 1e-9 for the counts of word files.
  return Math.log(count) + 0.5772156649015329 + 1 / (2 * count);
}

/**
 * One weight per row (frequency rank) of a table with `rowCount` rows cut
 * from a file of `fileWordCount` words.
 *
 * @example
 * const weights = wordWeights("sif", 50_000, 341_479);
 * weights[0] < weights[10_000]; // true: "the" counts less than a rarer word
 */
export function wordWeights(weighting: WordWeighting, rowCount: number, fileWordCount: number, parameter = SIF_PARAMETER): Float32Array {
  const weights = new Float32Array(rowCount);
  if (weighting === "uniform") return weights.fill(1);
  const harmonic = harmonicNumber(Math.max(fileWordCount, rowCount, 1));
  for (let rank = 0; rank < rowCount; rank += 1) {
    const probability = 1 / ((rank + 1) * harmonic);
    weights[rank] = parameter / (parameter + probability);
  }
  return weights;
}
