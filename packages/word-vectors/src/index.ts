/**
 * @agent-tools/word-vectors: a small real offline `EmbeddingClient` for
 * memory's hybrid search in tests and on hosts without an embedding model.
 *
 * @example
 * import { createWordVectorEmbedder } from "@agent-tools/word-vectors";
 * const embedder = await createWordVectorEmbedder();
 */
export type { WordWeighting } from "./embed/word-weights.js";
export { createWordVectorEmbedder } from "./word-vector-embedder.js";
export type { WordVectorEmbedderOptions } from "./word-vector-options.js";
