/**
 * The output of a run: the cap every stored output keeps, and the text an
 * http task's run records.
 */
import { CRON_LIMITS, type CronHttpRequest } from "./cron-types.js";

/** Characters of a response body an http run's output shows per request. */
export const CRON_HTTP_BODY_PREVIEW_CHARS = 2_048;

/**
 * Caps a run's output at `maxChars` (default {@link CRON_LIMITS.outputMaxChars}),
 * keeping its head and its tail (errors usually sit at the end) around a
 * middle marker `\n...[N characters truncated]...\n`; the result, marker
 * included, is at most `maxChars` long. Shorter text is returned unchanged.
 *
 * @example
 * capRunOutput("a".repeat(60_000)).length; // 50_000
 */
export function capRunOutput(text: string, maxChars: number = CRON_LIMITS.outputMaxChars): string {
  if (text.length <= maxChars) return text;
  // The marker's own length depends on the count; size it for the largest count first.
  const markerFor = (cut: number) => `\n...[${cut} characters truncated]...\n`;
  const markerLength = markerFor(text.length).length;
  if (markerLength >= maxChars) return text.slice(0, maxChars);
  const kept = maxChars - markerLength;
  const head = Math.ceil(kept / 2);
  const tail = kept - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}${markerFor(cut)}${tail > 0 ? text.slice(text.length - tail) : ""}`;
}

/** The outcome of one request of an http run. */
export interface CronHttpRequestResult {
  readonly request: Pick<CronHttpRequest, "method" | "url">;
  /** The response status; absent when no response came. */
  readonly status?: number;
  readonly durationMs: number;
  /** The response body as text (only its first {@link CRON_HTTP_BODY_PREVIEW_CHARS} characters are shown). */
  readonly body?: string;
  /** Why no response came (network error, timeout, abort). */
  readonly error?: string;
  /** Why the request was not sent (or a redirect not followed): the SSRF guard's reason. No body is ever kept for it. */
  readonly refused?: string;
}

/**
 * The run output of an http task, one block per request in order:
 * `1. POST https://example.com/hook -> 200 (35 ms)` followed by the first
 * {@link CRON_HTTP_BODY_PREVIEW_CHARS} characters of the body (with
 * `...[truncated]` when longer; nothing for an empty body), or
 * `1. GET https://example.com -> failed (5000 ms): <error>`, or
 * `1. GET http://10.0.0.1/ -> refused: <reason>`.
 */
export function describeHttpResults(results: readonly CronHttpRequestResult[]): string {
  if (results.length === 0) return "No requests were sent.";
  return results
    .map((result, index) => {
      const prefix = `${index + 1}. ${result.request.method} ${result.request.url} ->`;
      if (result.refused !== undefined) return `${prefix} refused: ${result.refused}`;
      if (result.status === undefined) return `${prefix} failed (${result.durationMs} ms): ${result.error ?? "no response"}`;
      const head = `${prefix} ${result.status} (${result.durationMs} ms)`;
      const body = result.body ?? "";
      if (body === "") return head;
      const shown = body.length > CRON_HTTP_BODY_PREVIEW_CHARS ? `${body.slice(0, CRON_HTTP_BODY_PREVIEW_CHARS)}...[truncated]` : body;
      return `${head}\n${shown}`;
    })
    .join("\n");
}
