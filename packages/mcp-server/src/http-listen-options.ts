/**
 * Checks `listenHttp`'s options before anything listens: an unknown key (a
 * mistyped `allowedHost` would otherwise leave the Host check at its default
 * without a word) or an invalid value is an `SdkError` naming it.
 */
import { SdkError } from "@agent-tools/core";
import type { McpHttpListenOptions } from "./mcp-server-options.js";

/** Concurrent HTTP sessions a listener allows unless `maxSessions` says otherwise. */
export const DEFAULT_MAX_HTTP_SESSIONS = 32;
/** How long an HTTP session may stay idle unless `sessionIdleMs` says otherwise: 30 minutes. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;

/** `listenHttp`'s options, checked, with their defaults filled in. */
export interface CheckedListenOptions {
  port: number;
  host: string;
  path: string;
  bearerToken?: string;
  /** Extra Host header entries (`name` or `name:port`), lower-cased. */
  allowedHosts: readonly string[];
  /** Extra browser origins, lower-cased. */
  allowedOrigins: readonly string[];
  maxSessions: number;
  sessionIdleMs: number;
}

const KNOWN_KEYS = ["port", "host", "path", "bearerToken", "allowedHosts", "allowedOrigins", "maxSessions", "sessionIdleMs"] as const;

/** `name` or `name:port`; the name a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/i;
const ORIGIN = /^https?:\/\/[^/\s]+$/i;

/**
 * Checks and completes `listenHttp` options. Throws `SdkError`
 * (`invalid_options`) naming the first key or value it cannot accept.
 *
 * @example
 * const checked = checkListenOptions({ port: 0, allowedHosts: ["mybox.lan"] });
 * checked.maxSessions; // 32
 */
export function checkListenOptions(options: McpHttpListenOptions): CheckedListenOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid("listenHttp needs an options object such as { port: 0 } (0 picks a free port).");
  }
  for (const key of Object.keys(options)) {
    if ((KNOWN_KEYS as readonly string[]).includes(key)) continue;
    const near = nearestKey(key);
    throw invalid(`listenHttp has no option "${key}"${near ? `; did you mean "${near}"?` : "."} Options: ${KNOWN_KEYS.join(", ")}.`, { option: key });
  }
  const { port } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw invalid("listenHttp needs { port } with an integer port from 0 to 65535 (0 picks a free port).", { option: "port" });
  }
  const host = options.host ?? "127.0.0.1";
  if (typeof host !== "string" || host.trim() === "") throw invalid("host must be a non-empty address such as 127.0.0.1.", { option: "host" });
  const endpoint = options.path ?? "/mcp";
  if (typeof endpoint !== "string" || !endpoint.startsWith("/")) throw invalid(`path must start with "/", such as "/mcp".`, { option: "path" });
  if (options.bearerToken !== undefined && (typeof options.bearerToken !== "string" || options.bearerToken.trim() === "")) {
    throw invalid("bearerToken must be a non-empty string (e.g. crypto.randomBytes(24).toString('base64url')).", { option: "bearerToken" });
  }
  const checked: CheckedListenOptions = {
    port,
    host,
    path: endpoint,
    allowedHosts: stringList(options.allowedHosts, "allowedHosts", HOST_ENTRY, '"mybox.lan" or "mybox.lan:8123" (no scheme, no path)'),
    allowedOrigins: stringList(options.allowedOrigins, "allowedOrigins", ORIGIN, '"http://localhost:5173" (scheme and host, no path)'),
    maxSessions: positiveInteger(options.maxSessions, "maxSessions", DEFAULT_MAX_HTTP_SESSIONS),
    sessionIdleMs: positiveInteger(options.sessionIdleMs, "sessionIdleMs", DEFAULT_SESSION_IDLE_MS),
  };
  if (options.bearerToken !== undefined) checked.bearerToken = options.bearerToken;
  return checked;
}

/** A known key the unknown one looks like: same letters in another case, or one contains the other (`allowedHost`, `token`). */
function nearestKey(key: string): string | undefined {
  const wanted = key
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/s$/, "");
  if (wanted.length < 3) return undefined;
  const containing = KNOWN_KEYS.find((known) => known.toLowerCase().includes(wanted));
  if (containing) return containing;
  // The longest known key inside the unknown one: "allowedHost" is nearer "allowedHosts" than "host".
  const inside = KNOWN_KEYS.filter((known) => wanted.includes(known.toLowerCase().replace(/s$/, "")));
  return inside.sort((a, b) => b.length - a.length)[0];
}

function stringList(value: unknown, option: string, pattern: RegExp, example: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalid(`${option} must be an array of strings such as ${example}.`, { option });
  return value.map((entry: unknown) => {
    if (typeof entry !== "string" || !pattern.test(entry)) {
      throw invalid(`${option} entry ${JSON.stringify(entry)} is not valid: use ${example}.`, { option });
    }
    return entry.toLowerCase();
  });
}

function positiveInteger(value: unknown, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw invalid(`${option} must be a positive integer (default ${fallback}), not ${JSON.stringify(value)}.`, { option });
  }
  return value;
}

function invalid(message: string, details: Record<string, unknown> = {}): SdkError {
  return new SdkError("invalid_options", message, details);
}
