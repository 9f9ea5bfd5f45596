import type { ModelClient, ModelRequest, ModelResponse } from "@agent-tools/core";
import { SdkError } from "@agent-tools/core";
import { abortErrorFor, throwIfAborted } from "@agent-tools/core/internal";
import { ChatCompletionsStreamAccumulator, parseChatCompletion, toChatCompletionsBody } from "./chat-completions-format.js";
import { ModelClientError } from "@agent-tools/core";
import { readServerSentEvents } from "./server-sent-events.js";
import {
  cappedProviderMessage,
  networkErrorDetail,
  providerErrorOf as providerError,
  providerMessageOf,
  redactSecrets,
  redactedCause,
  secretsOf,
  shownBody,
} from "./openai-compatible-http.js";

/** Options of {@link OpenAICompatibleModelClient}. */
export interface OpenAICompatibleModelClientOptions {
  /**
   * The API base, up to and including the version segment: `https://api.openai.com/v1`,
   * `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM).
   * `/chat/completions` is appended.
   */
  baseURL: string;
  /** The model name sent as `model`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given (local servers need none). */
  apiKey?: string;
  /**
   * `true` streams (SSE), `false` does not, `auto` (default) streams when the
   * request has an `onTextDelta` listener.
   */
  stream?: boolean | "auto";
  /**
   * Ask for token usage in the last streamed chunk (`stream_options.include_usage`);
   * default true. Set false for an older server that rejects `stream_options`.
   */
  includeUsage?: boolean;
  /** Extra headers (e.g. `OpenAI-Organization`); values of headers whose name mentions auth, key, token, secret or cookie are redacted from errors. */
  headers?: Record<string, string>;
  /** Extra body fields merged under the ones the client sets (e.g. `{ top_p: 0.9 }`). */
  extraBody?: Record<string, unknown>;
  /** Default `openai-compatible:<model>`. */
  id?: string;
  /** The fetch implementation; default the global one. */
  fetch?: typeof fetch;
}

/**
 * A {@link ModelClient} that speaks the OpenAI chat-completions protocol with
 * tools over `fetch`, streamed (SSE) or not. Works with OpenAI, Ollama, vLLM,
 * llama.cpp's server and other compatible servers. Tool-call argument deltas
 * are assembled per call; the arguments text is passed through unparsed.
 *
 * @example
 * const model = new OpenAICompatibleModelClient({
 *   baseURL: "http://localhost:11434/v1",
 *   model: "qwen2.5-coder:7b",
 * });
 * const response = await model.generate({ messages, tools: registry.tools, onTextDelta: (text) => process.stdout.write(text) });
 *
 * Redirects are not followed (a 3xx is an `http_error`): the headers, a
 * secret one among them, and the conversation would go to the other address.
 * The API key and secret header values are redacted from every error's
 * message, `data` and cause, also where the provider JSON-escaped them.
 */
export class OpenAICompatibleModelClient implements ModelClient {
  readonly id: string;
  readonly #options: OpenAICompatibleModelClientOptions;
  readonly #url: string;
  /** `#url` as errors quote it (secrets redacted). */
  readonly #shownUrl: string;
  readonly #secrets: readonly string[];

  constructor(options: OpenAICompatibleModelClientOptions) {
    if (typeof options?.baseURL !== "string" || !/^https?:\/\//.test(options.baseURL)) {
      throw new SdkError("invalid_options", `OpenAICompatibleModelClient needs an http(s) baseURL, not ${JSON.stringify(options?.baseURL)}.`);
    }
    if (typeof options.model !== "string" || options.model === "") {
      throw new SdkError("invalid_options", "OpenAICompatibleModelClient needs a model name.");
    }
    this.#options = options;
    this.#url = `${options.baseURL.replace(/\/+$/, "")}/chat/completions`;
    this.id = options.id ?? `openai-compatible:${options.model}`;
    this.#secrets = secretsOf(options.apiKey, options.headers);
    this.#shownUrl = this.#clean(this.#url);
  }

  /** `text` with the API key and secret header values redacted. */
  #clean(text: string): string {
    return redactSecrets(text, this.#secrets);
  }

  readonly #cleaner = (text: string): string => this.#clean(text);

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const signal = request.signal;
    throwIfAborted(signal);
    const streamOption = this.#options.stream ?? "auto";
    const stream = streamOption === "auto" ? request.onTextDelta !== undefined : streamOption;
    const body = toChatCompletionsBody(this.#options.model, request, {
      stream,
      includeUsage: this.#options.includeUsage ?? true,
      extraBody: this.#options.extraBody,
    });
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
      ...this.#options.headers,
    };
    if (this.#options.apiKey) headers.authorization = `Bearer ${this.#options.apiKey}`;
    const fetchImplementation = this.#options.fetch ?? fetch;
    let response: Response;
    try {
      response = await fetchImplementation(this.#url, { method: "POST", headers, body: JSON.stringify(body), signal, redirect: "manual" });
    } catch (error) {
      if (signal?.aborted) throw abortErrorFor(signal);
      throw new ModelClientError(
        "network_error",
        `Could not reach the model server at ${this.#shownUrl}: ${this.#clean(networkErrorDetail(error))}.`,
        { url: this.#shownUrl, clientId: this.id },
        { cause: redactedCause(error, this.#cleaner) },
      );
    }
    try {
      if ((response.status >= 300 && response.status < 400) || response.type === "opaqueredirect") {
        await response.body?.cancel().catch(() => undefined);
        throw new ModelClientError(
          "http_error",
          `The model server at ${this.#shownUrl} answered HTTP ${response.status} (a redirect); redirects are not followed, so the key and the conversation stay with this address: set baseURL to the final address.`,
          { status: response.status, url: this.#shownUrl, clientId: this.id },
        );
      }
      if (!response.ok) throw await this.#httpError(response);
      if (!stream) return await this.#readWhole(response);
      return await this.#readStream(response, request);
    } catch (error) {
      if (signal?.aborted) throw abortErrorFor(signal);
      throw error;
    }
  }

  async #httpError(response: Response): Promise<ModelClientError> {
    const text = this.#clean(await response.text().catch(() => ""));
    // Redacted again after the JSON is read: a secret the provider escaped (\u0073k-...) is plain text only then.
    const providerMessage = cappedProviderMessage(this.#clean(providerMessageOf(text)));
    const statusText = response.statusText ? ` ${response.statusText}` : "";
    return new ModelClientError(
      "http_error",
      `The model server answered HTTP ${response.status}${statusText} for ${this.#shownUrl}${providerMessage ? `: ${providerMessage}` : "."}`,
      { status: response.status, body: shownBody(text, this.#cleaner), url: this.#shownUrl, clientId: this.id },
    );
  }

  async #readWhole(response: Response): Promise<ModelResponse> {
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw this.#invalid(`the body is not JSON`, text);
    }
    const embedded = providerError(json);
    if (embedded)
      throw new ModelClientError("provider_error", `The model server reported an error: ${cappedProviderMessage(this.#clean(embedded))}`, {
        body: shownBody(text, this.#cleaner),
        url: this.#shownUrl,
        clientId: this.id,
      });
    const parsed = parseChatCompletion(json);
    if (typeof parsed === "string") throw this.#invalid(parsed, text);
    return parsed;
  }

  async #readStream(response: Response, request: ModelRequest): Promise<ModelResponse> {
    if (!response.body) throw this.#invalid("the streamed response has no body", "");
    const contentType = response.headers.get("content-type") ?? "";
    if (contentType.includes("application/json")) {
      // Some servers ignore `stream: true` and answer with one JSON object.
      const whole = await this.#readWhole(response);
      if (whole.text !== "") request.onTextDelta?.(whole.text);
      return whole;
    }
    const accumulator = new ChatCompletionsStreamAccumulator();
    let sawDone = false;
    let sawChunk = false;
    for await (const event of readServerSentEvents(response.body)) {
      const data = event.data.trim();
      if (data === "[DONE]") {
        sawDone = true;
        break;
      }
      if (data === "") continue;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch {
        throw this.#invalid("a stream event is not JSON", data);
      }
      const embedded = providerError(chunk) ?? (event.event === "error" ? data : undefined);
      if (embedded)
        throw new ModelClientError("provider_error", `The model server reported an error mid-stream: ${cappedProviderMessage(this.#clean(embedded))}`, {
          body: shownBody(data, this.#cleaner),
          url: this.#shownUrl,
          clientId: this.id,
        });
      sawChunk = true;
      const delta = accumulator.push(chunk);
      if (delta !== "") request.onTextDelta?.(delta);
    }
    if (!sawDone && !sawChunk) throw this.#invalid("the stream ended without any event", "");
    return accumulator.finish();
  }

  #invalid(reason: string, body: string): ModelClientError {
    return new ModelClientError("invalid_response", `The model server at ${this.#shownUrl} sent an unexpected answer: ${reason}.`, {
      body: shownBody(body, this.#cleaner),
      url: this.#shownUrl,
      clientId: this.id,
    });
  }
}
