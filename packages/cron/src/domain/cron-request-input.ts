/**
 * Validation of the `requests` of an http task: absolute http(s) URLs,
 * methods from {@link CRON_HTTP_METHODS} (default POST), string headers,
 * ids `req-1`, `req-2`, ... assigned in order.
 */
import { CRON_HTTP_METHODS, CRON_LIMITS, type CronHttpMethod, type CronHttpRequest } from "./cron-types.js";

/** One request as the tool receives it. */
export interface CronHttpRequestInput {
  readonly url: string;
  /** Case-insensitive; default POST. */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The default method of a request that names none. */
export const CRON_DEFAULT_HTTP_METHOD: CronHttpMethod = "POST";

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkUrl(where: string, url: string, issues: string[]): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    issues.push(`${where}.url "${trimmed}" is not an absolute URL; give one such as "https://example.com/hook".`);
    return trimmed;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    issues.push(`${where}.url must use http or https (got "${parsed.protocol.replace(/:$/, "")}").`);
  }
  return trimmed;
}

/**
 * Checks the requests of an http task and assigns their ids. Pushes one
 * English message per problem onto `issues` (each naming the request, e.g.
 * `requests[2].method`, and the fix); returns the requests when there were
 * none.
 */
export function validateCronRequests(requests: readonly CronHttpRequestInput[], issues: string[]): CronHttpRequest[] | undefined {
  const before = issues.length;
  if (requests.length === 0) {
    issues.push('requests is empty; give at least one request, e.g. [{"url": "https://example.com/hook"}].');
    return undefined;
  }
  if (requests.length > CRON_LIMITS.requestsMax) {
    issues.push(`requests has ${requests.length} entries; an http task sends at most ${CRON_LIMITS.requestsMax}. Split them over several tasks.`);
    return undefined;
  }
  const result = requests.map((request, index): CronHttpRequest => {
    const where = `requests[${index + 1}]`;
    const url = checkUrl(where, request.url, issues);
    const method = (request.method ?? CRON_DEFAULT_HTTP_METHOD).trim().toUpperCase() as CronHttpMethod;
    if (!CRON_HTTP_METHODS.includes(method)) {
      issues.push(`${where}.method "${request.method}" is not supported; use one of ${CRON_HTTP_METHODS.join(", ")} (default ${CRON_DEFAULT_HTTP_METHOD}).`);
    }
    const badHeaders = Object.keys(request.headers ?? {}).filter((name) => !HEADER_NAME.test(name));
    if (badHeaders.length > 0) {
      issues.push(
        `${where}.headers has invalid header name(s) ${badHeaders.map((name) => `"${name}"`).join(", ")}; use token characters only (e.g. "Content-Type").`,
      );
    }
    if (request.body !== undefined && (method === "GET" || method === "HEAD")) {
      issues.push(`${where}.body cannot be sent with ${method}; remove the body or use POST, PUT or PATCH.`);
    }
    return {
      id: `req-${index + 1}`,
      url,
      method,
      ...(request.headers === undefined || Object.keys(request.headers).length === 0 ? {} : { headers: { ...request.headers } }),
      ...(request.body === undefined ? {} : { body: request.body }),
    };
  });
  return issues.length === before ? result : undefined;
}
