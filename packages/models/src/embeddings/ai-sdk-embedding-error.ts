import { ModelClientError } from "@agent-tools/core";
import { MAX_BODY_IN_ERROR, redactedCause } from "../openai-compatible-http.js";

/** The fields of the AI SDK's `APICallError` (and its other `AI_*` errors) that the mapping reads. */
interface AiSdkErrorFields {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  responseBody?: unknown;
  url?: unknown;
}

/** No secret is known here (the AI SDK model holds the key): texts are kept as they are. */
const keepText = (text: string): string => text;

/**
 * Turns what an AI SDK embedding model threw into a {@link ModelClientError}:
 * an `APICallError` with a non-2xx `statusCode` -> `http_error` (status,
 * the provider's message, the body); one with a 2xx status (an answer the
 * provider could not parse) -> `invalid_response`; one without -> `network_error`; a
 * `JSONParseError`, `TypeValidationError` or `InvalidResponseDataError` ->
 * `invalid_response`; anything else -> `provider_error`. The request's
 * headers (and so the API key) are never copied: only the message, status,
 * URL and response body. The cause kept is a copy of the AI SDK error's
 * name, code and message (one level of its own cause likewise), not the
 * error itself: that one holds the request body, the texts embedded.
 */
export function aiSdkEmbeddingError(error: unknown, clientId: string): ModelClientError {
  const fields = (error && typeof error === "object" ? error : {}) as AiSdkErrorFields;
  const name = typeof fields.name === "string" ? fields.name : "";
  const message = typeof fields.message === "string" ? fields.message : String(error);
  const url = typeof fields.url === "string" ? fields.url : undefined;
  const body = typeof fields.responseBody === "string" ? fields.responseBody.slice(0, MAX_BODY_IN_ERROR) : undefined;
  const data = { clientId, ...(url !== undefined ? { url } : {}), ...(body !== undefined ? { body } : {}) };
  const status = typeof fields.statusCode === "number" ? fields.statusCode : undefined;
  if (name === "AI_APICallError" && status !== undefined && status >= 200 && status < 300) {
    // The provider got a 2xx answer it could not parse (the AI SDK reports that as an APICallError too).
    return new ModelClientError("invalid_response", `The embedding provider sent an unexpected answer for ${clientId}: ${message}`, data, {
      cause: redactedCause(error, keepText),
    });
  }
  if (name === "AI_APICallError" && status !== undefined) {
    return new ModelClientError(
      "http_error",
      `The embedding provider answered HTTP ${status} for ${clientId}: ${message}`,
      { ...data, status },
      { cause: redactedCause(error, keepText) },
    );
  }
  if (name === "AI_APICallError") {
    return new ModelClientError("network_error", `Could not reach the embedding provider for ${clientId}: ${message}`, data, {
      cause: redactedCause(error, keepText),
    });
  }
  if (name === "AI_JSONParseError" || name === "AI_TypeValidationError" || name === "AI_InvalidResponseDataError") {
    return new ModelClientError("invalid_response", `The embedding provider sent an unexpected answer for ${clientId}: ${message}`, data, {
      cause: redactedCause(error, keepText),
    });
  }
  return new ModelClientError("provider_error", `The embedding provider failed for ${clientId}: ${message}`, data, { cause: redactedCause(error, keepText) });
}
