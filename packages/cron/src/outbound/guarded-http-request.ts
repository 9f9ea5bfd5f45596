/**
 * One HTTP request through the {@link SsrfGuard}: node:http / node:https
 * dialling the addresses the guard checked (never resolving the name again),
 * redirects followed by hand with the guard applied at every hop, and the
 * response body read only as far as the caller asks.
 */
import { type IncomingHttpHeaders, type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { type LookupFunction, isIP } from "node:net";
import { ToolError } from "@agent-tools/core";
import { decodedBody } from "@agent-tools/core/internal";
import { type CheckedTarget, type SsrfGuard, isSsrfRefusal } from "./ssrf-guard.js";

/** Redirects followed at most, by default. */
export const GUARDED_HTTP_MAX_REDIRECTS = 5;

/** What to send. */
export interface GuardedHttpRequestInit {
  /** Default `GET`. */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent for methods other than GET and HEAD; `content-type` defaults to `text/plain;charset=UTF-8`. */
  readonly body?: string;
  readonly signal?: AbortSignal;
  /** Default {@link GUARDED_HTTP_MAX_REDIRECTS}; 0 returns the first 3xx as it is. */
  readonly maxRedirects?: number;
}

/** The final response (after redirects). Read its body with `readText` or drop it with `close`. */
export interface GuardedHttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The URL that answered (the last hop). */
  readonly url: string;
  readonly redirects: number;
  /** Reads at most `maxChars` characters of the body (decoded from gzip, deflate or br), then closes the response. */
  readText(maxChars: number): Promise<string>;
  close(): void;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin (fetch drops the same). */
const CROSS_ORIGIN_DROPPED = new Set(["authorization", "cookie", "proxy-authorization"]);

/**
 * Sends one request: every hop's URL checked by `guard` (scheme and every
 * address), the connection made to a checked address with the host name
 * kept for the `Host` header and TLS (SNI and certificate check), and at
 * most `maxRedirects` redirects followed (303, and 301/302 after a POST,
 * continue as GET without a body; credentials headers are dropped when the
 * origin changes). Throws the guard's `ToolError` for a refused target
 * (naming the redirect when a later hop was refused), `ToolError`
 * `limit_reached` past the redirect limit, and the transport's error for
 * network failures.
 *
 * @example
 * const response = await sendGuardedHttpRequest("https://example.com/hook", { method: "POST", body: "{}" }, createSsrfGuard());
 * const head = await response.readText(2048);
 */
export async function sendGuardedHttpRequest(url: string, init: GuardedHttpRequestInit, guard: SsrfGuard): Promise<GuardedHttpResponse> {
  const maxRedirects = init.maxRedirects ?? GUARDED_HTTP_MAX_REDIRECTS;
  let method = (init.method ?? "GET").toUpperCase();
  let headers: Record<string, string> = { ...init.headers };
  let body = method === "GET" || method === "HEAD" ? undefined : init.body;
  let target = await guard.check(url);
  for (let redirects = 0; ; redirects += 1) {
    const response = await dialChecked(target, method, headers, body, init.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined || maxRedirects === 0) {
      return wrapResponse(response, target.url.href, redirects, init.signal);
    }
    // A redirect's own body is never read.
    response.destroy();
    if (redirects >= maxRedirects) {
      throw new ToolError("limit_reached", `stopped after ${maxRedirects} redirects (the last one to ${location})`, { details: { redirects } });
    }
    let next: URL;
    try {
      next = new URL(location, target.url);
    } catch {
      throw new ToolError("invalid_arguments", `the redirect from ${target.url.href} points to ${JSON.stringify(location)}, which is not a URL`);
    }
    try {
      const checked = await guard.check(next);
      if (checked.url.origin !== target.url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !CROSS_ORIGIN_DROPPED.has(name.toLowerCase())));
      }
      target = checked;
    } catch (error) {
      if (!isSsrfRefusal(error)) throw error;
      throw new ToolError("permission_denied", `the redirect from ${target.url.href} to ${next.href} was not followed: ${error.message}`, {
        details: { ...error.details, redirect: true },
      });
    }
    if (status === 303 ? method !== "HEAD" : (status === 301 || status === 302) && method === "POST") {
      method = "GET";
      body = undefined;
      headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-(type|length|encoding)$/i.test(name)));
    }
  }
}

/** Dials the checked addresses in order until one answers; the name is never resolved again. */
async function dialChecked(
  target: CheckedTarget,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  let lastError: unknown;
  for (const address of target.addresses) {
    try {
      return await dialOnce(target.url, address.address, address.family, method, headers, body, signal);
    } catch (error) {
      if (signal?.aborted || !isConnectError(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

function dialOnce(
  url: URL,
  address: string,
  family: 4 | 6,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal | undefined,
): Promise<IncomingMessage> {
  const https = url.protocol === "https:";
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const outgoing: Record<string, string> = { ...headers };
  if (!Object.keys(outgoing).some((name) => name.toLowerCase() === "host")) outgoing.host = url.host;
  if (body !== undefined && !Object.keys(outgoing).some((name) => name.toLowerCase() === "content-type")) {
    outgoing["content-type"] = "text/plain;charset=UTF-8";
  }
  return new Promise((resolve, reject) => {
    const options = {
      host: address,
      family,
      port: url.port === "" ? (https ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      // One connection per request: a pooled socket would skip the check of the next target.
      agent: false as const,
      ...(signal === undefined ? {} : { signal }),
      // Belt and braces: the host is an address, so Node does not look it up; if it ever did, it gets the checked one.
      lookup: pinnedLookup(address, family),
      // TLS checks the certificate against the name in the URL, not the address dialled.
      ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
    };
    const request = (https ? httpsRequest : httpRequest)(options, resolve);
    request.on("error", reject);
    request.end(body);
  });
}

/** A `lookup` that answers every name with the checked address. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all === true;
    if (all) (callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function isConnectError(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "ECONNREFUSED" || code === "EHOSTUNREACH" || code === "ENETUNREACH" || code === "EADDRNOTAVAIL" || code === "ETIMEDOUT";
}

function wrapResponse(response: IncomingMessage, url: string, redirects: number, signal: AbortSignal | undefined): GuardedHttpResponse {
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    url,
    redirects,
    close: () => response.destroy(),
    async readText(maxChars) {
      const stream = decodedBody(response);
      const decoder = new TextDecoder();
      let text = "";
      const onAbort = () => stream.destroy(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        for await (const chunk of stream) {
          text += decoder.decode(chunk as Uint8Array, { stream: true });
          if (text.length >= maxChars) return text.slice(0, maxChars);
        }
        return (text + decoder.decode()).slice(0, maxChars);
      } finally {
        signal?.removeEventListener("abort", onAbort);
        stream.destroy();
        response.destroy();
      }
    },
  };
}
