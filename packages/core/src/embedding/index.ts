/**
 * `@agent-tools/core/embedding`: the port through which a host gives the SDK
 * a text embedding model (memory's search by meaning). Adapters live in
 * `@agent-tools/models/embeddings` (OpenAI-compatible endpoints, AI SDK
 * embedding models) and `@agent-tools/word-vectors` (offline).
 *
 * @packageDocumentation
 */
export type { EmbeddingClient, EmbedOptions } from "./embedding-client.js";
