/**
 * One GET through the guard: node:http / node:https with a `lookup` that
 * answers only the checked addresses (the name is never resolved again),
 * a fresh connection per hop (`agent: false`: a pooled socket would skip
 * the next hop's check), redirects followed by hand with every hop checked,
 * and the body read, decompressed, only up to the byte cap.
 */
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { type LookupFunction, isIP } from "node:net";
import { ToolError } from "@agent-tools/core";
import { decodedBody } from "@agent-tools/core/internal";
import type { AllowList } from "../guard/allow-list.js";
import { type CheckedTarget, type ResolveHost, type ResolvedAddress, checkTarget, isRefusal, refusal } from "../guard/web-ssrf-guard.js";

/** Redirects followed at most. */
export const WEB_FETCH_MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What {@link fetchPage} needs. */
export interface FetchPageRequest {
  readonly url: string;
  readonly allow: AllowList;
  readonly resolveHost: ResolveHost;
  /** The call's signal combined with the time cap. */
  readonly signal: AbortSignal;
  /** Bytes of the (decompressed) body kept at most. */
  readonly maxBytes: number;
  readonly userAgent: string;
}

/** The answer: the last hop's response, or the redirect to another host that was not followed. */
export type FetchedPage =
  | {
      readonly kind: "page";
      readonly finalUrl: string;
      readonly status: number;
      readonly contentType: string | undefined;
      readonly body: Buffer;
      /** True when the body went on past `maxBytes` (the rest was not read). */
      readonly truncated: boolean;
      readonly redirects: number;
    }
  | { readonly kind: "redirect"; readonly finalUrl: string; readonly status: number; readonly location: string; readonly redirects: number };

/**
 * What to do with a redirect from `from` to `to`: `follow` on exactly the
 * same host name (a `www.` twin is another host: permission rules name
 * hosts exactly; same port, or the scheme's default ports when the scheme
 * changes), `downgrade` from https to http
 * (refused: the page would travel unencrypted), `other_host` otherwise
 * (returned to the caller, so its rules for that host apply to a new call).
 */
export function classifyRedirect(from: URL, to: URL): "follow" | "downgrade" | "other_host" {
  if (from.protocol === "https:" && to.protocol === "http:") return "downgrade";
  return from.hostname === to.hostname && (from.port === to.port || from.protocol !== to.protocol) ? "follow" : "other_host";
}

/**
 * Fetches `request.url`. Redirects within the same host are followed (at
 * most {@link WEB_FETCH_MAX_REDIRECTS}, each checked); a redirect to
 * another host is returned unfollowed (after the guard checked it, so a
 * redirect to a refused address is refused), so the caller's rules for that
 * host apply to a new call; https to http is refused.
 */
export async function fetchPage(request: FetchPageRequest): Promise<FetchedPage> {
  let target = await checkTarget(request.url, request.allow, request.resolveHost, request.signal);
  for (let redirects = 0; ; redirects += 1) {
    const response = await dial(target, request);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(status) || location === undefined) {
      const { body, truncated } = await readCapped(response, request.maxBytes, request.signal);
      const contentType = response.headers["content-type"];
      return { kind: "page", finalUrl: target.url.href, status, contentType, body, truncated, redirects };
    }
    // A redirect's own body is never read.
    response.destroy();
    let next: URL;
    try {
      next = new URL(location, target.url);
    } catch {
      throw new ToolError("invalid_arguments", `${target.url.href} redirected to ${JSON.stringify(location)}, which is not a URL.`);
    }
    let checked: CheckedTarget;
    try {
      checked = await checkTarget(next, request.allow, request.resolveHost, request.signal);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      throw refusal(`${target.url.href} redirected to ${next.href}, which was not followed: ${error.message}`, "redirect", next.href);
    }
    const decision = classifyRedirect(target.url, next);
    if (decision === "downgrade") {
      throw refusal(
        `${target.url.href} redirected to ${next.href}, from https to plain http; not followed. Fetch the http URL yourself only if an unencrypted page is acceptable.`,
        "downgrade",
        next.href,
      );
    }
    if (decision === "other_host") return { kind: "redirect", finalUrl: target.url.href, status, location: next.href, redirects };
    if (redirects + 1 > WEB_FETCH_MAX_REDIRECTS) {
      throw new ToolError("limit_reached", `stopped after ${WEB_FETCH_MAX_REDIRECTS} redirects (the last one to ${next.href}).`, {
        details: { redirects: WEB_FETCH_MAX_REDIRECTS },
      });
    }
    target = checked;
  }
}

/** A `lookup` that answers every name with the checked addresses and nothing else. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = typeof options === "object" && options !== null ? (options as { family?: unknown }).family : undefined;
    const usable = addresses.filter((entry) => (wanted !== 4 && wanted !== 6 ? true : entry.family === wanted));
    const all = typeof options === "object" && options !== null && (options as { all?: boolean }).all === true;
    if (usable.length === 0) {
      callback(Object.assign(new Error(`no checked address of family ${String(wanted)}`), { code: "ENOTFOUND" }), "", 4);
      return;
    }
    if (all) (callback as (error: null, addresses: readonly ResolvedAddress[]) => void)(null, usable);
    else callback(null, (usable[0] as ResolvedAddress).address, (usable[0] as ResolvedAddress).family);
  };
}

function dial(target: CheckedTarget, request: FetchPageRequest): Promise<IncomingMessage> {
  const { url, hostname } = target;
  const https = url.protocol === "https:";
  return new Promise((resolve, reject) => {
    const outgoing = (https ? httpsRequest : httpRequest)(
      {
        // The name (not an address), so the Host header and TLS's SNI and certificate check use it; the lookup pins the address.
        host: hostname,
        port: url.port === "" ? (https ? 443 : 80) : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: {
          "user-agent": request.userAgent,
          accept: "text/html, text/markdown;q=0.9, text/plain;q=0.9, application/json;q=0.9, application/pdf;q=0.8, */*;q=0.5",
          "accept-encoding": "gzip, deflate, br",
        },
        agent: false,
        signal: request.signal,
        lookup: pinnedLookup(target.addresses),
        ...(https && isIP(hostname) === 0 ? { servername: hostname } : {}),
      },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

/** The body, decompressed, up to `maxBytes` (decompressed bytes count: a small gzip bomb stops at the cap). */
async function readCapped(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const stream = decodedBody(response);
  const chunks: Buffer[] = [];
  let size = 0;
  const onAbort = () => stream.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size));
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(buffer);
      size += buffer.length;
    }
    return { body: Buffer.concat(chunks), truncated: false };
  } finally {
    signal.removeEventListener("abort", onAbort);
    stream.destroy();
    response.destroy();
  }
}
