/**
 * The host's options of WebFetch and their fail-closed check: unknown keys,
 * wrong types and malformed allow-list entries throw `SdkError` naming the
 * option and the closest valid value.
 */
import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import type { PdfText } from "./content/convert-content.js";
import { type AllowList, parseAllowList } from "./guard/allow-list.js";
import { type ResolveHost, systemResolveHost } from "./guard/web-ssrf-guard.js";
import type { WebFetchCacheOptions } from "./web-fetch-cache.js";

/** Default of `max_bytes`: 5 MiB. */
export const WEB_FETCH_DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
/** The largest `max_bytes` a call may ask for: 20 MiB. */
export const WEB_FETCH_MAX_BYTES = 20 * 1024 * 1024;
/** Default time for one call, redirects and body included. */
export const WEB_FETCH_DEFAULT_TIMEOUT_MS = 30_000;

/** Options of {@link webTools} and {@link createWebToolBundle}. */
export interface WebFetchOptions {
  /**
   * Hosts WebFetch may reach although they are not public (an intranet
   * docs server, a test server): `"internal.example"`, `"127.0.0.1:8080"`,
   * `"[::1]:8080"`. An entry with a port allows that port only. The
   * addresses are still resolved once and the connection pinned to them.
   */
  readonly allowHosts?: readonly string[];
  /** Non-public networks WebFetch may reach, as CIDR blocks or addresses (`"10.20.0.0/16"`). */
  readonly allowAddresses?: readonly string[];
  /** Resolves host names; default the system resolver. Tests inject one so nothing leaves the machine. */
  readonly resolve?: ResolveHost;
  /** Extracts a PDF's text; without it a PDF is refused. The SDK wires tools-fs's PDF reader. */
  readonly pdfText?: PdfText;
  /** The page cache (per registry); `false` turns it off. */
  readonly cache?: false | WebFetchCacheOptions;
  /** Time for one call, redirects and body included; default 30 s. */
  readonly timeoutMs?: number;
}

/** The checked options with defaults filled in. */
export interface ResolvedWebFetchOptions {
  readonly allow: AllowList;
  readonly resolveHost: ResolveHost;
  readonly pdfText: PdfText | undefined;
  readonly cache: false | WebFetchCacheOptions;
  readonly timeoutMs: number;
}

const KNOWN = ["allowHosts", "allowAddresses", "resolve", "pdfText", "cache", "timeoutMs"];
const CACHE_KNOWN = ["ttlMs", "maxEntries", "maxChars"];

function rejectUnknown(value: object, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closestName(key, known);
    throw new SdkError(
      "invalid_options",
      `${where}${key} is not an option${near === undefined ? "" : `; did you mean ${where}${near}?`} (known: ${known.join(", ")}).`,
      {
        option: `${where}${key}`,
      },
    );
  }
}

function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new SdkError("invalid_options", `${name} must be a non-negative integer, not ${JSON.stringify(value)}.`, { option: name });
  }
  return value;
}

/**
 * Checks the host's options; `where` prefixes option names in messages
 * (`webFetch.` from the SDK).
 *
 * @example
 * resolveWebFetchOptions({ allowHosts: ["127.0.0.1:8080"] });
 */
export function resolveWebFetchOptions(options: WebFetchOptions = {}, where = ""): ResolvedWebFetchOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new SdkError("invalid_options", `${where || "WebFetch options"} must be an object, e.g. { allowHosts: ["127.0.0.1:8080"] }.`);
  }
  rejectUnknown(options, KNOWN, where);
  for (const key of ["resolve", "pdfText"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "function") {
      throw new SdkError("invalid_options", `${where}${key} must be a function.`, { option: `${where}${key}` });
    }
  }
  const cache = options.cache ?? {};
  if (cache !== false) {
    if (typeof cache !== "object" || cache === null || Array.isArray(cache)) {
      throw new SdkError("invalid_options", `${where}cache must be false or { ttlMs?, maxEntries?, maxChars? }.`, { option: `${where}cache` });
    }
    rejectUnknown(cache, CACHE_KNOWN, `${where}cache.`);
    for (const key of CACHE_KNOWN) positiveInteger((cache as Record<string, unknown>)[key], `${where}cache.${key}`);
  }
  const timeoutMs = positiveInteger(options.timeoutMs, `${where}timeoutMs`) ?? WEB_FETCH_DEFAULT_TIMEOUT_MS;
  if (timeoutMs === 0) throw new SdkError("invalid_options", `${where}timeoutMs must be at least 1 (default ${WEB_FETCH_DEFAULT_TIMEOUT_MS}).`);
  return {
    allow: parseAllowList(options, where),
    resolveHost: options.resolve ?? systemResolveHost,
    pdfText: options.pdfText,
    cache,
    timeoutMs,
  };
}
