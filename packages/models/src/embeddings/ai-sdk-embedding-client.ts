import type { EmbeddingClient, EmbedOptions } from "@agent-tools/core/embedding";
import { ModelClientError, SdkError } from "@agent-tools/core";
import { abortErrorFor, raceAbortError } from "@agent-tools/core/internal";
import type { AiSdkEmbeddingModel } from "./ai-sdk-embedding-model.js";
import { embedInBatches } from "./embed-in-batches.js";
import { checkInteger, checkOptionKeys, MAX_EMBEDDING_BATCH_SIZE, resolveBatchSize } from "./embedding-options.js";
import { toCheckedVectors } from "./embedding-vectors.js";
import { aiSdkEmbeddingError } from "./ai-sdk-embedding-error.js";

/** Options of {@link AiSdkEmbeddingClient}. */
export interface AiSdkEmbeddingClientOptions {
  /** The length of every vector the model returns; every answer is checked against it. */
  dimensions: number;
  /** Values per `doEmbed` call, 1 to 2048 and at most the model's numeric `maxEmbeddingsPerCall`; default 96 (or that limit when smaller). */
  maxBatchSize?: number;
  /** Passed to the provider as `providerOptions` on every call, e.g. `{ openai: { dimensions: 512 } }`. */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Default `<provider>:<modelId>@<dimensions>`. Change it when something else changes the vectors (e.g. providerOptions). */
  modelId?: string;
}

/** Options of {@link AiSdkEmbeddingClient.create}: `dimensions` may be left out (then one probe call finds it). */
export type AiSdkEmbeddingClientCreateOptions = Omit<AiSdkEmbeddingClientOptions, "dimensions"> & { dimensions?: number };

const OWNER = "AiSdkEmbeddingClient";
const OPTION_KEYS = ["dimensions", "maxBatchSize", "providerOptions", "modelId"] as const;
const MAX_DIMENSION = 65_536;

function checkModel(model: AiSdkEmbeddingModel): void {
  if (!model || typeof model !== "object" || typeof model.doEmbed !== "function") {
    throw new SdkError("invalid_options", `${OWNER} needs an AI SDK embedding model object (with doEmbed), not ${model === null ? "null" : typeof model}.`);
  }
  if (model.specificationVersion !== "v2" && model.specificationVersion !== "v3") {
    throw new SdkError("invalid_options", `${OWNER} supports embedding models of specification v2 and v3, not ${JSON.stringify(model.specificationVersion)}.`);
  }
}

function checkCommonOptions(options: AiSdkEmbeddingClientCreateOptions): void {
  if (!options || typeof options !== "object") throw new SdkError("invalid_options", `${OWNER} needs an options object.`);
  checkOptionKeys(OWNER, options, OPTION_KEYS);
  if (options.providerOptions !== undefined && (typeof options.providerOptions !== "object" || options.providerOptions === null)) {
    throw new SdkError("invalid_options", `${OWNER}: providerOptions must be an object keyed by provider name.`);
  }
  if (options.modelId !== undefined && (typeof options.modelId !== "string" || options.modelId === "")) {
    throw new SdkError("invalid_options", `${OWNER}: modelId must be a non-empty string.`);
  }
}

/** The model's limit when it states a positive integer synchronously, else 2048. */
function modelLimit(limit: unknown): number {
  return typeof limit === "number" && Number.isInteger(limit) && limit >= 1 ? Math.min(limit, MAX_EMBEDDING_BATCH_SIZE) : MAX_EMBEDDING_BATCH_SIZE;
}

/**
 * An {@link EmbeddingClient} over a Vercel AI SDK embedding model
 * (specification v2 or v3): any AI SDK provider's `textEmbeddingModel(...)`.
 * Calls larger than `maxBatchSize` are split into sequential `doEmbed`
 * calls; answers are checked (count, length, finite components). Provider
 * failures become `ModelClientError`s: `http_error` (with the status and the
 * provider's message) for an `APICallError` with a status, `network_error`
 * for one without, `invalid_response` for an answer the provider could not
 * parse, `provider_error` otherwise. The constructor makes no call; it needs
 * `dimensions`. {@link AiSdkEmbeddingClient.create} can probe for it.
 *
 * @example
 * import { openai } from "@ai-sdk/openai";
 * const embedder = new AiSdkEmbeddingClient(openai.textEmbeddingModel("text-embedding-3-small"), { dimensions: 1536 });
 */
export class AiSdkEmbeddingClient implements EmbeddingClient {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxBatchSize: number;
  readonly #model: AiSdkEmbeddingModel;
  readonly #providerOptions: Record<string, Record<string, unknown>> | undefined;

  /** Checks the model and options (an `SdkError` names a wrong one); makes no call. */
  constructor(model: AiSdkEmbeddingModel, options: AiSdkEmbeddingClientOptions) {
    checkModel(model);
    checkCommonOptions(options);
    this.dimension = checkInteger(OWNER, "dimensions", options.dimensions, 1, MAX_DIMENSION);
    const limit = modelLimit(model.maxEmbeddingsPerCall);
    if (typeof options.maxBatchSize === "number" && options.maxBatchSize > limit && Number.isInteger(options.maxBatchSize)) {
      throw new SdkError("invalid_options", `${OWNER}: maxBatchSize ${options.maxBatchSize} is above the model's limit of ${limit} values per call.`);
    }
    this.maxBatchSize = resolveBatchSize(OWNER, options.maxBatchSize, limit);
    this.#model = model;
    this.#providerOptions = options.providerOptions;
    this.modelId = options.modelId ?? `${model.provider}:${model.modelId}@${this.dimension}`;
  }

  /**
   * A client whose batch limit honours a `maxEmbeddingsPerCall` the model
   * only gives as a promise, and whose `dimensions` is found by one probe
   * call when the options leave it out. With `dimensions` given and a
   * synchronous limit it makes no call.
   */
  static async create(
    model: AiSdkEmbeddingModel,
    options: AiSdkEmbeddingClientCreateOptions = {},
    callOptions: EmbedOptions = {},
  ): Promise<AiSdkEmbeddingClient> {
    checkModel(model);
    checkCommonOptions(options);
    const limit = await raceAbortError(Promise.resolve(model.maxEmbeddingsPerCall), callOptions.signal);
    if (typeof options.maxBatchSize === "number" && options.maxBatchSize > modelLimit(limit) && Number.isInteger(options.maxBatchSize)) {
      throw new SdkError(
        "invalid_options",
        `${OWNER}: maxBatchSize ${options.maxBatchSize} is above the model's limit of ${modelLimit(limit)} values per call.`,
      );
    }
    const maxBatchSize = options.maxBatchSize ?? resolveBatchSize(OWNER, undefined, modelLimit(limit));
    if (options.dimensions !== undefined) return new AiSdkEmbeddingClient(model, { ...options, dimensions: options.dimensions, maxBatchSize });
    const [probe] = await callModel(
      model,
      ["dimension probe"],
      options.providerOptions,
      callOptions.signal,
      options.modelId ?? `${model.provider}:${model.modelId}`,
    );
    const dimension = Array.isArray(probe) || ArrayBuffer.isView(probe) ? (probe as ArrayLike<number>).length : 0;
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw new ModelClientError(
        "invalid_response",
        `The embedding model ${model.provider}:${model.modelId} answered the dimension probe without a usable vector.`,
        {
          clientId: options.modelId ?? `${model.provider}:${model.modelId}`,
        },
      );
    }
    return new AiSdkEmbeddingClient(model, { ...options, dimensions: dimension, maxBatchSize });
  }

  /** One checked vector per text, in order; see the port's contract. */
  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    return embedInBatches(texts, this.maxBatchSize, options.signal, async (batch) => {
      const raw = await callModel(this.#model, [...batch], this.#providerOptions, options.signal, this.modelId);
      const vectors = toCheckedVectors(raw, batch.length, this.dimension);
      if (typeof vectors === "string") {
        throw new ModelClientError("invalid_response", `The embedding model ${this.modelId} sent an unexpected answer: ${vectors}.`, {
          clientId: this.modelId,
        });
      }
      return vectors;
    });
  }
}

/** One `doEmbed` call: the raw embeddings, or a rejection shaped as the port wants it. */
async function callModel(
  model: AiSdkEmbeddingModel,
  values: string[],
  providerOptions: Record<string, Record<string, unknown>> | undefined,
  signal: AbortSignal | undefined,
  clientId: string,
): Promise<unknown[]> {
  try {
    const result = await raceAbortError(
      model.doEmbed({ values, ...(signal ? { abortSignal: signal } : {}), ...(providerOptions ? { providerOptions } : {}) }),
      signal,
    );
    const embeddings: unknown = (result as { embeddings?: unknown } | undefined)?.embeddings;
    if (!Array.isArray(embeddings)) {
      throw new ModelClientError("invalid_response", `The embedding model ${clientId} sent an unexpected answer: "embeddings" is not an array.`, { clientId });
    }
    return embeddings;
  } catch (error) {
    if (signal?.aborted) throw abortErrorFor(signal);
    if (error instanceof ModelClientError) throw error;
    throw aiSdkEmbeddingError(error, clientId);
  }
}
