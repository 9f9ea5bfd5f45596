/**
 * The SSRF guard of WebFetch: only http and https URLs without
 * credentials, `localhost` and cloud-metadata host names refused before
 * any lookup, host names resolved here (through the injectable resolver),
 * and every address checked against the non-public ranges unless the host
 * allowed that host or network on purpose. The checked addresses are the
 * only ones the connection may use (see `pinnedLookup`), so DNS rebinding
 * between the check and the connection cannot switch them.
 */
import { lookup } from "node:dns/promises";
import { ToolError } from "@agent-tools/core";
import { type AllowList, isAddressAllowed, isHostAllowed } from "./allow-list.js";
import { type IpAddress, classifyAddress, formatIpAddress, mappedIpv4Of, parseIpAddress } from "@agent-tools/core/internal";

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type ResolveHost = (hostname: string, signal: AbortSignal) => Promise<readonly ResolvedAddress[]>;

/** A URL that passed the guard and the addresses the connection may use, in order. */
export interface CheckedTarget {
  readonly url: URL;
  /** The host name without IPv6 brackets. */
  readonly hostname: string;
  readonly addresses: readonly ResolvedAddress[];
}

/** Host names that name the cloud metadata services; refused like their addresses. */
const METADATA_HOSTNAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.platformequinix.com",
]);

/** The system resolver: every address, in the resolver's order. */
export const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

/** The refusal of a target: `permission_denied`, `details.refused: true`. */
export function refusal(reason: string, kind: string, url?: string): ToolError {
  return new ToolError("permission_denied", reason, { details: { refused: true, kind, ...(url === undefined ? {} : { url }) }, recoverable: false });
}

/** True when `error` is the guard's refusal (not a network failure). */
export function isRefusal(error: unknown): error is ToolError {
  return error instanceof ToolError && error.code === "permission_denied" && error.details.refused === true;
}

/** Parses `input` as an http(s) URL without credentials, or throws the refusal. */
export function parseWebUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(typeof input === "string" ? input : input.href);
  } catch {
    throw new ToolError("invalid_arguments", `${JSON.stringify(String(input))} is not an absolute URL; write e.g. https://example.com/page.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refusal(`only http: and https: URLs are fetched, not ${url.protocol}`, "scheme");
  if (url.username !== "" || url.password !== "") throw refusal("URLs with credentials (user:password@) are not fetched", "credentials");
  return url;
}

/**
 * Checks one URL: scheme, credentials, host name and every address it
 * resolves to. A name with one public and one private address is refused
 * whole (the transport could dial either). Throws `ToolError`
 * `permission_denied` for a refused target and `not_found` for a name that
 * does not resolve.
 */
export async function checkTarget(input: string | URL, allow: AllowList, resolveHost: ResolveHost, signal: AbortSignal): Promise<CheckedTarget> {
  const url = parseWebUrl(input);
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const hostAllowed = isHostAllowed(allow, url);
  const bareName = hostname.toLowerCase().replace(/\.$/, "");
  if (!hostAllowed && (bareName === "localhost" || bareName.endsWith(".localhost"))) {
    throw refusal(`${hostname} is the local machine, which WebFetch does not reach`, "localhost", url.href);
  }
  if (!hostAllowed && METADATA_HOSTNAMES.has(bareName)) {
    throw refusal(`${hostname} is a cloud metadata service, which WebFetch does not reach`, "metadata", url.href);
  }
  // The WHATWG parser already turned `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1` into `127.0.0.1`.
  const literal = parseIpAddress(hostname);
  if (literal !== undefined) {
    return { url, hostname, addresses: [checkAddress(literal, undefined, hostAllowed, allow, url)] };
  }
  let resolved: readonly ResolvedAddress[];
  try {
    resolved = await resolveHost(hostname, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    const code = (error as { code?: unknown }).code;
    throw new ToolError("not_found", `host ${hostname} could not be resolved${typeof code === "string" ? ` (${code})` : ""}; check the URL.`, {
      details: { host: hostname },
    });
  }
  if (resolved.length === 0) throw new ToolError("not_found", `host ${hostname} has no addresses; check the URL.`, { details: { host: hostname } });
  const addresses = resolved.map((entry) => {
    const address = parseIpAddress(entry.address);
    if (address === undefined) throw refusal(`${hostname} resolved to ${JSON.stringify(entry.address)}, which is not an IP address`, "address", url.href);
    return checkAddress(address, hostname, hostAllowed, allow, url);
  });
  return { url, hostname, addresses };
}

/** The address to dial, or the refusal (`hostname` when it was a name resolved to `address`). */
function checkAddress(address: IpAddress, hostname: string | undefined, hostAllowed: boolean, allow: AllowList, url: URL): ResolvedAddress {
  const nonPublic = classifyAddress(address);
  if (nonPublic !== undefined && !hostAllowed && !isAddressAllowed(allow, address, nonPublic.embeddedIpv4)) {
    const text = formatIpAddress(address);
    throw refusal(
      hostname === undefined
        ? `${text} is ${nonPublic.description}, not a public address; WebFetch reaches public addresses only`
        : `${hostname} resolves to ${text}, ${nonPublic.description}, not a public address; WebFetch reaches public addresses only`,
      "address",
      url.href,
    );
  }
  const dial = mappedIpv4Of(address) ?? address;
  return { address: formatIpAddress(dial), family: dial.family };
}
