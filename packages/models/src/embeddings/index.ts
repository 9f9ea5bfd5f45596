/**
 * `@agent-tools/models/embeddings`: adapters of the `EmbeddingClient` port
 * (`@agent-tools/core/embedding`). `OpenAICompatibleEmbeddingClient` speaks
 * `POST /embeddings` over fetch; `AiSdkEmbeddingClient` wraps any Vercel AI
 * SDK embedding model (typed structurally: no dependency on `ai`). Both
 * check every answer (count, length, finite components), split large calls
 * into batches, honour an `AbortSignal` and fail with `ModelClientError`.
 *
 * @packageDocumentation
 */
export { OpenAICompatibleEmbeddingClient } from "./openai-compatible-embedding-client.js";
export type { OpenAICompatibleEmbeddingClientOptions, OpenAICompatibleEmbeddingClientCreateOptions } from "./openai-compatible-embedding-client.js";
export { AiSdkEmbeddingClient } from "./ai-sdk-embedding-client.js";
export type { AiSdkEmbeddingClientOptions, AiSdkEmbeddingClientCreateOptions } from "./ai-sdk-embedding-client.js";
export type { AiSdkEmbeddingModel, AiSdkEmbedCallOptions, AiSdkEmbedResult } from "./ai-sdk-embedding-model.js";
