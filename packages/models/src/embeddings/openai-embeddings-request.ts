import { ModelClientError } from "@agent-tools/core";
import { abortErrorFor, readCappedBody, throwIfAborted } from "@agent-tools/core/internal";
import {
  cappedProviderMessage as capped,
  networkErrorDetail,
  providerErrorOf,
  providerMessageOf,
  redactSecrets,
  redactedCause,
  shownBody,
} from "../openai-compatible-http.js";

/** What one POST to an OpenAI-compatible `/embeddings` endpoint needs. */
export interface EmbeddingsRequestConfig {
  /** The full `.../embeddings` URL. */
  readonly url: string;
  /** Request headers, the authorization header included. */
  readonly headers: Readonly<Record<string, string>>;
  /** Values never to show in an error (the API key, secret header values). */
  readonly secrets: readonly string[];
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly fetch: typeof fetch;
  /** The client's `modelId`, put in errors' `data.clientId`. */
  readonly clientId: string;
}

/**
 * POSTs `body` and resolves with the parsed JSON of a 2xx answer. Rejects
 * with an `AbortError` when `signal` aborts (the request is cancelled), or a
 * {@link ModelClientError}: `network_error` (unreachable, or no full answer
 * within `timeoutMs`), `http_error` (status and the provider's message),
 * `provider_error` (a 2xx `{ error }` body), `invalid_response` (not JSON,
 * or larger than `maxResponseBytes`). Secrets are redacted from every
 * message, `data` field and cause, also where the provider escaped them in
 * JSON. Redirects are not followed (a 3xx is an `http_error`): the headers,
 * a secret one among them, and the texts would go to the other address.
 */
export async function postEmbeddings(config: EmbeddingsRequestConfig, body: unknown, signal: AbortSignal | undefined): Promise<unknown> {
  throwIfAborted(signal);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeoutMs);
  const clean = (text: string) => redactSecrets(text, config.secrets);
  const url = clean(config.url);
  const data = (extra: { status?: number; body?: string } = {}) => ({ ...extra, url, clientId: config.clientId });
  const failure = (error: unknown, stage: string): unknown => {
    if (signal?.aborted) return abortErrorFor(signal);
    if (error instanceof ModelClientError) return error;
    if (timedOut) return new ModelClientError("network_error", `The embeddings server at ${url} did not ${stage} within ${config.timeoutMs} ms.`, data());
    return new ModelClientError("network_error", `Could not ${stage} from the embeddings server at ${url}: ${clean(networkErrorDetail(error))}.`, data(), {
      cause: redactedCause(error, clean),
    });
  };
  try {
    let response: Response;
    try {
      response = await config.fetch(config.url, {
        method: "POST",
        headers: { ...config.headers },
        body: JSON.stringify(body),
        signal: controller.signal,
        redirect: "manual",
      });
    } catch (error) {
      throw failure(error, "get an answer");
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new ModelClientError(
        "http_error",
        `The embeddings server at ${url} answered HTTP ${response.status} (a redirect); redirects are not followed, so the key and the texts stay with this address: set baseURL to the final address.`,
        data({ status: response.status }),
      );
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readCappedBody(response, config.maxResponseBytes);
    } catch (error) {
      throw failure(error, "read the answer");
    }
    if (bytes === undefined && response.ok) {
      throw new ModelClientError(
        "invalid_response",
        `The embeddings server at ${url} sent an answer larger than maxResponseBytes (${config.maxResponseBytes} bytes); raise maxResponseBytes or lower maxBatchSize.`,
        data(),
      );
    }
    const text = clean(new TextDecoder().decode(bytes ?? new Uint8Array(0)));
    if (!response.ok) {
      // Redacted again after the JSON is read: a secret the provider escaped (\u0073k-...) is plain text only then.
      const providerMessage = capped(clean(providerMessageOf(text)));
      const statusText = response.statusText ? ` ${response.statusText}` : "";
      throw new ModelClientError(
        "http_error",
        `The embeddings server answered HTTP ${response.status}${statusText} for ${url}${providerMessage ? `: ${providerMessage}` : "."}`,
        data({ status: response.status, body: shownBody(text, clean) }),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelClientError(
        "invalid_response",
        `The embeddings server at ${url} sent an unexpected answer: the body is not JSON.`,
        data({ body: shownBody(text, clean) }),
      );
    }
    const embedded = providerErrorOf(json);
    if (embedded !== undefined) {
      throw new ModelClientError(
        "provider_error",
        `The embeddings server reported an error: ${capped(clean(embedded))}`,
        data({ body: shownBody(text, clean) }),
      );
    }
    return json;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
