/**
 * EmbeddingClient: turns texts into vectors, for search by meaning (memory's
 * hybrid ranking). A host passes one in; the SDK never picks a provider.
 *
 * Contract of every adapter:
 * - `embed(texts)` resolves with exactly one vector per text, in the same
 *   order, each of length `dimension`, every component finite. An adapter
 *   checks what its provider answered and rejects (`ModelClientError`,
 *   code `invalid_response`) rather than pass on a wrong count, a wrong
 *   length or a `NaN`.
 * - An empty `texts` resolves with `[]` without calling the provider.
 * - Callers may pass any number of texts; an adapter with a provider limit
 *   splits the call into batches of at most `maxBatchSize` itself.
 * - When `signal` aborts (before or during the call) the promise rejects with
 *   an error whose `name` is `AbortError`, and the request is cancelled.
 * - Transport and provider failures reject with a `ModelClientError` naming
 *   the HTTP status and the provider's own message; the API key never
 *   appears in a message or in `data`.
 * - `modelId` names the model and every setting that changes the vectors
 *   (dimensions, normalisation). Vectors stored under another `modelId` are
 *   stale and re-embedded.
 */

/** Options of one {@link EmbeddingClient.embed} call. */
export interface EmbedOptions {
  /** Cancels the call; the promise then rejects with an `AbortError`. */
  readonly signal?: AbortSignal;
}

/** A text embedding model. See the module comment for the contract every adapter keeps. */
export interface EmbeddingClient {
  /** Stable id of the model and of every setting that changes its vectors, e.g. `openai:text-embedding-3-small@512`. */
  readonly modelId: string;
  /** Length of every vector `embed` returns. */
  readonly dimension: number;
  /** Largest number of texts the adapter sends in one provider request (it splits larger calls itself). */
  readonly maxBatchSize: number;
  /** One vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]>;
}
