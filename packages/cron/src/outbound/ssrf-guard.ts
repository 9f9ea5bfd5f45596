/**
 * The SSRF guard of outbound HTTP requests made on a model's behalf: only
 * http and https URLs, host names resolved here (not by the transport), and
 * every address checked against the non-public ranges unless the host
 * allowed that network on purpose. The checked addresses are what the
 * transport must connect to (see `sendGuardedHttpRequest`), so DNS
 * rebinding between the check and the connection cannot switch them.
 */
import { lookup } from "node:dns/promises";
import { SdkError, ToolError } from "@agent-tools/core";
import {
  type IpAddress,
  type IpNetwork,
  classifyAddress,
  formatIpAddress,
  mappedIpv4Of,
  networkContains,
  parseIpAddress,
  parseIpNetwork,
} from "@agent-tools/core/internal";

/** One address a host name resolved to. */
export interface ResolvedHostAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedHostAddress[]>;

/** Options of {@link createSsrfGuard}. */
export interface SsrfGuardOptions {
  /**
   * Non-public networks that may be reached on purpose, as CIDR blocks or
   * single addresses (`["10.20.0.0/16", "127.0.0.1", "fd00::/8"]`); an
   * IPv6 form embedding an IPv4 address matches through that address.
   * Default none. A malformed entry throws `SdkError`.
   */
  readonly allowedPrivateNetworks?: readonly string[];
  /** Default: the system resolver (`dns.lookup`, every address, in its order). */
  readonly resolveHost?: ResolveHost;
  /** How messages name `allowedPrivateNetworks` (default `allowedPrivateNetworks`): the option path the host wrote. */
  readonly optionName?: string;
}

/** An address a request may connect to: checked, in the form to dial (`::ffff:a.b.c.d` dials `a.b.c.d`). */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A URL that passed the guard and the addresses to connect to, in order. */
export interface CheckedTarget {
  readonly url: URL;
  readonly addresses: readonly CheckedAddress[];
}

/** Checks outbound URLs; see {@link createSsrfGuard}. */
export interface SsrfGuard {
  /**
   * Parses and checks `url`: http or https only, no credentials in it,
   * every address of its host public or in an allowed network. Throws
   * `ToolError` `permission_denied` (`details.refused: true`) for a refused
   * target and `not_found` for a host name that does not resolve.
   */
  check(url: string | URL): Promise<CheckedTarget>;
}

const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

/**
 * Parses a host's allow-list of private networks, failing closed: anything
 * that is not an array of CIDR blocks or addresses throws `SdkError`
 * `invalid_options` naming the entry and showing the expected form.
 *
 * @example
 * parseAllowedPrivateNetworks(["10.0.0.0/8", "::1"], "cron.http.allowedPrivateNetworks");
 */
export function parseAllowedPrivateNetworks(value: unknown, optionName = "allowedPrivateNetworks"): IpNetwork[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new SdkError("invalid_options", `${optionName} must be an array of CIDR blocks or IP addresses, e.g. ["10.20.0.0/16", "127.0.0.1"].`);
  }
  return value.map((entry, index) => {
    const network = typeof entry === "string" ? parseIpNetwork(entry.trim()) : undefined;
    if (network === undefined) {
      throw new SdkError(
        "invalid_options",
        `${optionName}[${index}] ${JSON.stringify(entry)} is not a CIDR block or IP address; write e.g. "10.20.0.0/16", "192.168.1.5" or "fd00::/8" (no host bits past the prefix).`,
        { option: optionName, index },
      );
    }
    return network;
  });
}

/**
 * Builds the guard. The allow-list is parsed once, here (fail closed).
 *
 * @example
 * const guard = createSsrfGuard({ allowedPrivateNetworks: ["10.20.0.0/16"] });
 * const { url, addresses } = await guard.check("https://example.com/hook");
 */
export function createSsrfGuard(options: SsrfGuardOptions = {}): SsrfGuard {
  const allowed = parseAllowedPrivateNetworks(options.allowedPrivateNetworks, options.optionName);
  const resolveHost = options.resolveHost ?? systemResolveHost;
  const isAllowed = (address: IpAddress, embedded: IpAddress | undefined) =>
    allowed.some((network) => networkContains(network, address) || (embedded !== undefined && networkContains(network, embedded)));

  /** The address to dial, or the refusal's message (`hostname` when it was a name resolved to `address`). */
  const checkAddress = (address: IpAddress, hostname?: string): CheckedAddress | string => {
    const nonPublic = classifyAddress(address);
    if (nonPublic !== undefined && !isAllowed(address, nonPublic.embeddedIpv4)) {
      const text = formatIpAddress(address);
      return hostname === undefined
        ? `${text} is ${nonPublic.description}, not a public address`
        : `${hostname} resolves to ${text}, ${nonPublic.description}, not a public address`;
    }
    const dial = mappedIpv4Of(address) ?? address;
    return { address: formatIpAddress(dial), family: dial.family };
  };

  return {
    async check(input) {
      let url: URL;
      try {
        url = typeof input === "string" ? new URL(input) : new URL(input.href);
      } catch {
        throw refusal(`${JSON.stringify(String(input))} is not an absolute URL`, "invalid_url");
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        throw refusal(`only http: and https: URLs may be requested, not ${url.protocol}`, "scheme");
      }
      if (url.username !== "" || url.password !== "") {
        throw refusal("URLs with credentials (user:password@) are not sent; put them in an Authorization header instead", "credentials");
      }
      // The WHATWG parser already turned `2130706433`, `0x7f000001`, `0177.0.0.1` and `127.1` into `127.0.0.1`.
      const literal = parseIpAddress(url.hostname);
      if (literal !== undefined) {
        const checked = checkAddress(literal);
        if (typeof checked === "string") throw refusal(checked, "address");
        return { url, addresses: [checked] };
      }
      let resolved: readonly ResolvedHostAddress[];
      try {
        resolved = await resolveHost(url.hostname);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new ToolError("not_found", `host ${url.hostname} could not be resolved${typeof code === "string" ? ` (${code})` : ""}`, {
          details: { host: url.hostname },
        });
      }
      if (resolved.length === 0) throw new ToolError("not_found", `host ${url.hostname} has no addresses`, { details: { host: url.hostname } });
      const addresses: CheckedAddress[] = [];
      for (const entry of resolved) {
        const address = parseIpAddress(entry.address);
        // Every address must pass: the transport may dial any of them.
        if (address === undefined) throw refusal(`${url.hostname} resolved to ${JSON.stringify(entry.address)}, which is not an IP address`, "address");
        const checked = checkAddress(address, url.hostname);
        if (typeof checked === "string") throw refusal(checked, "address");
        addresses.push(checked);
      }
      return { url, addresses };
    },
  };
}

function refusal(reason: string, kind: string): ToolError {
  return new ToolError("permission_denied", reason, { details: { refused: true, kind } });
}

/** True when `error` is the guard's refusal (not a network failure). */
export function isSsrfRefusal(error: unknown): error is ToolError {
  return error instanceof ToolError && error.code === "permission_denied" && error.details.refused === true;
}
