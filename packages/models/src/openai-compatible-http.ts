/**
 * Error shaping shared by the OpenAI-compatible adapters (chat completions
 * and embeddings): the provider's own message out of an error body, the
 * detail of a failed `fetch`, and the redaction of secrets from what goes
 * into an error.
 */

/** At most this many characters of a response body are kept in an error's `data.body`. */
export const MAX_BODY_IN_ERROR = 4_000;

/** The message of an `{ "error": ... }` object, if the JSON is one. */
export function providerErrorOf(json: unknown): string | undefined {
  if (!json || typeof json !== "object" || !("error" in json)) return undefined;
  const error = (json as { error: unknown }).error;
  if (error === null || error === undefined) return undefined;
  if (typeof error === "string") return error;
  if (typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return JSON.stringify(error);
}

/**
 * The provider's own message in a non-2xx body: `error` (a string or
 * `{ message }`) or `message` of a JSON body, else the first 300 characters
 * of a non-JSON body; `""` for JSON without either.
 */
export function providerMessageOf(text: string): string {
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown };
    const errorField = json.error;
    if (typeof errorField === "string") return errorField;
    if (errorField && typeof errorField === "object" && typeof (errorField as { message?: unknown }).message === "string")
      return (errorField as { message: string }).message;
    if (typeof json.message === "string") return json.message;
    return "";
  } catch {
    return text.trim().slice(0, 300);
  }
}

/** The most telling part of a `fetch` rejection: the cause's code (`ECONNREFUSED`), else its message. */
export function networkErrorDetail(error: unknown): string {
  const cause = (error as { cause?: { message?: string; code?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`
 * (secrets shorter than 4 characters are left alone: they would redact
 * ordinary words).
 *
 * @example
 * redactSecrets("bad key sk-123456", ["sk-123456"]); // "bad key [redacted]"
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) if (secret.length >= 4) redacted = redacted.split(secret).join("[redacted]");
  return redacted;
}

/** Header names whose values are secrets (redacted from errors): auth, key, token, secret, cookie. */
const SECRET_HEADER = /auth|key|token|secret|cookie/i;

/**
 * The values an adapter never shows in an error: the API key and the values
 * of secret-looking headers (with and without a `Bearer`/`Basic` prefix).
 */
export function secretsOf(apiKey: string | undefined, headers: Readonly<Record<string, string>> | undefined): string[] {
  return [
    ...(apiKey ? [apiKey] : []),
    ...Object.entries(headers ?? {})
      .filter(([name]) => SECRET_HEADER.test(name))
      .flatMap(([, value]) => [value, value.replace(/^(Bearer|Basic)\s+/i, "")]),
  ];
}

/** Longest provider message an error quotes (the whole body stays out of messages; `data.body` keeps its start). */
const MAX_PROVIDER_MESSAGE = 500;

/** `text` cut at 500 characters (the longest provider message an error quotes). */
export function cappedProviderMessage(text: string): string {
  return text.length > MAX_PROVIDER_MESSAGE ? `${text.slice(0, MAX_PROVIDER_MESSAGE)}...` : text;
}

/**
 * `error` as a cause safe to keep: its name, code and message with the
 * secrets redacted, one level of its own cause likewise (undici's messages
 * quote header values, the key among them).
 */
export function redactedCause(error: unknown, clean: (text: string) => string, depth = 0): Error {
  const original = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown } | null;
  const copy = new Error(clean(String(original?.message ?? error)));
  if (typeof original?.name === "string") copy.name = original.name;
  if (typeof original?.code === "string") Object.assign(copy, { code: original.code });
  if (depth === 0 && original?.cause !== undefined) Object.assign(copy, { cause: redactedCause(original.cause, clean, 1) });
  return copy;
}

/**
 * A body as an error's `data.body` shows it: a JSON body re-serialised (so
 * an escaped secret, `\u0073k-...`, is written plainly and redacted), cut at
 * {@link MAX_BODY_IN_ERROR}.
 */
export function shownBody(text: string, clean: (text: string) => string): string {
  let plain = text;
  try {
    plain = JSON.stringify(JSON.parse(text));
  } catch {
    // Not JSON: shown as it came.
  }
  return clean(plain).slice(0, MAX_BODY_IN_ERROR);
}
