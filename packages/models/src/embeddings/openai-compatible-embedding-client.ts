import type { EmbeddingClient, EmbedOptions } from "@agent-tools/core/embedding";
import { ModelClientError, SdkError } from "@agent-tools/core";
import { embedInBatches } from "./embed-in-batches.js";
import { checkInteger, checkOptionKeys, MAX_EMBEDDING_BATCH_SIZE, resolveBatchSize } from "./embedding-options.js";
import { redactSecrets, secretsOf } from "../openai-compatible-http.js";
import { parseEmbeddingsResponse } from "./openai-embeddings-response.js";
import { postEmbeddings } from "./openai-embeddings-request.js";
import type { EmbeddingsRequestConfig } from "./openai-embeddings-request.js";

/** Options of {@link OpenAICompatibleEmbeddingClient}. */
export interface OpenAICompatibleEmbeddingClientOptions {
  /**
   * The API base, up to and including the version segment (`https://api.openai.com/v1`,
   * `http://localhost:11434/v1`); `/embeddings` is appended.
   */
  baseURL: string;
  /** The model name sent as `model`. */
  model: string;
  /**
   * The length of every vector. Sent as `dimensions` (models that can shorten
   * their vectors, e.g. `text-embedding-3-small`) unless `sendDimensions` is
   * false; every answer is checked against it either way.
   */
  dimensions: number;
  /** Send `dimensions` in the request; default true. Set false for a fixed-length model on a server that rejects the field. */
  sendDimensions?: boolean;
  /** Sent as `Authorization: Bearer <apiKey>` when given. Never shown in an error. */
  apiKey?: string;
  /** Extra headers; values of headers whose name mentions auth, key, token, secret or cookie are redacted from errors too. */
  headers?: Record<string, string>;
  /** Texts per request, 1 to 2048; default 96. Larger calls are split into sequential requests. */
  maxBatchSize?: number;
  /** Per request: the whole answer must arrive within this many milliseconds; default 60 000. */
  timeoutMs?: number;
  /** Largest answer body read, in bytes; default enough for `maxBatchSize` vectors written as JSON floats (32 bytes a component) plus 1 MiB. */
  maxResponseBytes?: number;
  /** `base64` (default: about a quarter of the bytes of `float`) or `float`. Answers in either form are accepted. */
  encodingFormat?: "base64" | "float";
  /** Default `openai-compatible:<model>@<dimensions>`. Change it when something else changes the vectors. */
  modelId?: string;
  /** The fetch implementation; default the global one. */
  fetch?: typeof fetch;
}

/** Options of {@link OpenAICompatibleEmbeddingClient.create}: `dimensions` may be left out (then one probe request finds it). */
export type OpenAICompatibleEmbeddingClientCreateOptions = Omit<OpenAICompatibleEmbeddingClientOptions, "dimensions"> & { dimensions?: number };

const OWNER = "OpenAICompatibleEmbeddingClient";
const OPTION_KEYS = [
  "baseURL",
  "model",
  "dimensions",
  "sendDimensions",
  "apiKey",
  "headers",
  "maxBatchSize",
  "timeoutMs",
  "maxResponseBytes",
  "encodingFormat",
  "modelId",
  "fetch",
] as const;
const MAX_DIMENSION = 65_536;
const DEFAULT_TIMEOUT_MS = 60_000;

function requestConfig(options: OpenAICompatibleEmbeddingClientCreateOptions, clientId: string, maxResponseBytes: number): EmbeddingsRequestConfig {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json", ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const secrets = secretsOf(options.apiKey, options.headers);
  return {
    url: `${options.baseURL.replace(/\/+$/, "")}/embeddings`,
    headers,
    secrets,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes,
    fetch: options.fetch ?? fetch,
    clientId,
  };
}

/** The length of the first vector of a probe answer (an array, or base64 of float32), if there is one. */
function probedDimension(json: unknown): number | undefined {
  const data = (json as { data?: unknown } | null)?.data;
  const first = Array.isArray(data) ? (data[0] as { embedding?: unknown } | undefined)?.embedding : undefined;
  const length = typeof first === "string" ? Math.floor((first.replace(/=+$/, "").length * 3) / 4 / 4) : Array.isArray(first) ? first.length : 0;
  return length >= 1 && length <= MAX_DIMENSION ? length : undefined;
}

/**
 * Throws `SdkError` unless `baseURL` is an http(s) URL without credentials,
 * query or fragment (`/embeddings` is appended to its path; a key belongs in
 * `apiKey` or `headers`, where errors redact it). Such a URL is not quoted.
 */
function checkBaseURL(baseURL: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof baseURL === "string" ? new URL(baseURL) : undefined;
  } catch {
    url = undefined;
  }
  const hidden = url !== undefined && (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "");
  if (hidden) {
    throw new SdkError(
      "invalid_options",
      `${OWNER}: baseURL must not hold credentials, a query or a fragment (it is not shown here); put a key in apiKey or headers.`,
      { option: "baseURL" },
    );
  }
  if (url === undefined || !/^https?:$/.test(url.protocol) || !/^https?:\/\//.test(String(baseURL))) {
    const shown = typeof baseURL === "string" && /[@?#]/.test(baseURL) ? "a value with credentials, a query or a fragment" : JSON.stringify(baseURL);
    throw new SdkError("invalid_options", `${OWNER} needs an http(s) baseURL, not ${shown}.`, { option: "baseURL" });
  }
}

/** Checks every option but `dimensions`, throwing an `SdkError` that names the first wrong one. */
function checkCommonOptions(options: OpenAICompatibleEmbeddingClientCreateOptions): void {
  if (!options || typeof options !== "object") throw new SdkError("invalid_options", `${OWNER} needs an options object.`);
  checkOptionKeys(OWNER, options, OPTION_KEYS);
  checkBaseURL(options.baseURL);
  if (typeof options.model !== "string" || options.model === "") throw new SdkError("invalid_options", `${OWNER} needs a model name.`);
  if (options.sendDimensions !== undefined && typeof options.sendDimensions !== "boolean") {
    throw new SdkError("invalid_options", `${OWNER}: sendDimensions must be true or false.`);
  }
  if (options.apiKey !== undefined && typeof options.apiKey !== "string") throw new SdkError("invalid_options", `${OWNER}: apiKey must be a string.`);
  if (options.headers !== undefined && (typeof options.headers !== "object" || Object.values(options.headers).some((value) => typeof value !== "string"))) {
    throw new SdkError("invalid_options", `${OWNER}: headers must map header names to strings.`);
  }
  if (options.timeoutMs !== undefined) checkInteger(OWNER, "timeoutMs", options.timeoutMs, 1, 3_600_000);
  if (options.maxResponseBytes !== undefined) checkInteger(OWNER, "maxResponseBytes", options.maxResponseBytes, 1024, 2 ** 31 - 1);
  if (options.encodingFormat !== undefined && options.encodingFormat !== "base64" && options.encodingFormat !== "float") {
    throw new SdkError("invalid_options", `${OWNER}: encodingFormat must be "base64" or "float", not ${JSON.stringify(options.encodingFormat)}.`);
  }
  if (options.modelId !== undefined && (typeof options.modelId !== "string" || options.modelId === "")) {
    throw new SdkError("invalid_options", `${OWNER}: modelId must be a non-empty string.`);
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new SdkError("invalid_options", `${OWNER}: fetch must be a function.`);
  resolveBatchSize(OWNER, options.maxBatchSize, MAX_EMBEDDING_BATCH_SIZE);
}

/**
 * An {@link EmbeddingClient} over an OpenAI-compatible `POST /embeddings`
 * endpoint (OpenAI, Azure OpenAI's v1 API, Ollama, vLLM, llama.cpp's server,
 * LM Studio, text-embeddings-inference). Answers are put in `index` order and
 * checked (count, length, finite components); calls larger than
 * `maxBatchSize` are split into sequential requests. The constructor makes no
 * request: it needs `dimensions`. {@link OpenAICompatibleEmbeddingClient.create}
 * can find the length with one probe request instead.
 *
 * @example
 * const embedder = new OpenAICompatibleEmbeddingClient({
 *   baseURL: "https://api.openai.com/v1",
 *   apiKey: process.env.OPENAI_API_KEY,
 *   model: "text-embedding-3-small",
 *   dimensions: 512,
 * });
 * const [vector] = await embedder.embed(["hello"]);
 */
export class OpenAICompatibleEmbeddingClient implements EmbeddingClient {
  readonly modelId: string;
  readonly dimension: number;
  readonly maxBatchSize: number;
  readonly #model: string;
  readonly #sendDimensions: boolean;
  readonly #encodingFormat: "base64" | "float";
  readonly #config: EmbeddingsRequestConfig;

  /** Checks the options (an `SdkError` names a wrong one); makes no request. */
  constructor(options: OpenAICompatibleEmbeddingClientOptions) {
    checkCommonOptions(options);
    this.dimension = checkInteger(OWNER, "dimensions", options.dimensions, 1, MAX_DIMENSION);
    this.maxBatchSize = resolveBatchSize(OWNER, options.maxBatchSize);
    this.#model = options.model;
    this.#sendDimensions = options.sendDimensions ?? true;
    this.#encodingFormat = options.encodingFormat ?? "base64";
    this.modelId = options.modelId ?? `openai-compatible:${options.model}@${this.dimension}`;
    this.#config = requestConfig(options, this.modelId, options.maxResponseBytes ?? this.maxBatchSize * this.dimension * 32 + 1024 * 1024);
  }

  /**
   * A client, with `dimensions` found by one request embedding a short probe
   * text when the options leave it out (then `dimensions` is not sent).
   * With `dimensions` given it makes no request, like the constructor.
   */
  static async create(options: OpenAICompatibleEmbeddingClientCreateOptions, callOptions: EmbedOptions = {}): Promise<OpenAICompatibleEmbeddingClient> {
    if (options?.dimensions !== undefined) return new OpenAICompatibleEmbeddingClient(options as OpenAICompatibleEmbeddingClientOptions);
    checkCommonOptions(options);
    const encodingFormat = options.encodingFormat ?? "base64";
    const config = requestConfig(
      options,
      options.modelId ?? `openai-compatible:${options.model}`,
      options.maxResponseBytes ?? MAX_DIMENSION * 32 + 1024 * 1024,
    );
    const json = await postEmbeddings(config, { model: options.model, input: ["dimension probe"], encoding_format: encodingFormat }, callOptions.signal);
    const dimension = probedDimension(json);
    const checked = dimension === undefined ? "the probe's vector is missing or empty" : parseEmbeddingsResponse(json, 1, dimension);
    if (dimension === undefined || typeof checked === "string") {
      const url = redactSecrets(config.url, config.secrets);
      throw new ModelClientError("invalid_response", `The embeddings server at ${url} sent an unexpected answer to the dimension probe: ${checked}.`, {
        url,
        clientId: config.clientId,
      });
    }
    return new OpenAICompatibleEmbeddingClient({ ...options, dimensions: dimension, sendDimensions: false });
  }

  /** One checked vector per text, in order; see the port's contract. */
  embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    return embedInBatches(texts, this.maxBatchSize, options.signal, (batch) => this.#embedBatch(batch, options.signal));
  }

  async #embedBatch(batch: readonly string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const body = {
      model: this.#model,
      input: batch,
      encoding_format: this.#encodingFormat,
      ...(this.#sendDimensions ? { dimensions: this.dimension } : {}),
    };
    const json = await postEmbeddings(this.#config, body, signal);
    const vectors = parseEmbeddingsResponse(json, batch.length, this.dimension);
    if (typeof vectors === "string") {
      const url = redactSecrets(this.#config.url, this.#config.secrets);
      throw new ModelClientError("invalid_response", `The embeddings server at ${url} sent an unexpected answer: ${vectors}.`, { url, clientId: this.modelId });
    }
    return vectors;
  }
}
