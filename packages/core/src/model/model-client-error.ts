import { CodedError } from "../errors.js";

/** What kind of failure a {@link ModelClientError} reports. */
export type ModelClientErrorCode =
  /** The server answered with a non-2xx HTTP status. */
  | "http_error"
  /** The server could not be reached (DNS, refused connection, reset). */
  | "network_error"
  /** The server answered, but not in the expected protocol. */
  | "invalid_response"
  /** The provider reported an error inside an otherwise valid answer (e.g. an error event in a stream). */
  | "provider_error"
  /** A {@link ScriptedModelClient} was asked for more turns than it was scripted with. */
  | "script_exhausted";

/** Facts attached to a {@link ModelClientError}. */
export interface ModelClientErrorData {
  /** The HTTP status, for `http_error`. */
  status?: number;
  /** The response body (at most 4 000 characters), when there was one. */
  body?: string;
  /** The URL that was requested, for HTTP adapters. */
  url?: string;
  /** The model client's id. */
  clientId?: string;
}

/**
 * A model request failed for a reason other than an abort. The message names
 * the HTTP status and the provider's own error message.
 *
 * @example
 * try {
 *   await client.generate(request);
 * } catch (error) {
 *   if (error instanceof ModelClientError && error.status === 429) await sleep(1000);
 * }
 */
export class ModelClientError extends CodedError<ModelClientErrorCode, ModelClientErrorData> {
  override readonly name = "ModelClientError";

  constructor(code: ModelClientErrorCode, message: string, data: ModelClientErrorData = {}, options?: { cause?: unknown }) {
    super(code, message, data, options);
  }

  /** The HTTP status, for `http_error`. */
  get status(): number | undefined {
    return this.data.status;
  }

  /** True for failures worth retrying: network errors, HTTP 408, 409, 429 and 5xx. */
  get retryable(): boolean {
    if (this.code === "network_error") return true;
    const status = this.data.status;
    return status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500);
  }
}
