/**
 * The subset of the Vercel AI SDK provider specification
 * (`EmbeddingModelV2<string>` and `EmbeddingModelV3` from `@ai-sdk/provider`)
 * that {@link AiSdkEmbeddingClient} uses, typed structurally so that this
 * package does not depend on `ai`.
 */

/** The call options the client sends to `doEmbed`. */
export interface AiSdkEmbedCallOptions {
  values: string[];
  abortSignal?: AbortSignal;
  providerOptions?: Record<string, Record<string, unknown>>;
}

/** What `doEmbed` resolves with: only the field the client reads. */
export interface AiSdkEmbedResult {
  embeddings: ArrayLike<number>[];
}

/** An AI SDK text embedding model (specification `v2` or `v3`), e.g. `openai.textEmbeddingModel("text-embedding-3-small")`. */
export interface AiSdkEmbeddingModel {
  readonly specificationVersion: "v2" | "v3";
  readonly provider: string;
  readonly modelId: string;
  /** The provider's limit of values per call; a number, `undefined` (no known limit) or a promise of either. */
  readonly maxEmbeddingsPerCall: PromiseLike<number | undefined> | number | undefined;
  doEmbed(options: AiSdkEmbedCallOptions): PromiseLike<AiSdkEmbedResult>;
}
