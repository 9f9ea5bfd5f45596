/**
 * What a host lets WebFetch reach beyond the public internet: host names
 * (optionally with a port) and non-public networks. Parsed once, failing
 * closed: a malformed entry throws `SdkError` naming it and showing the
 * form to write.
 */
import { SdkError } from "@agent-tools/core";
import { type IpAddress, type IpNetwork, networkContains, parseIpAddress, parseIpNetwork } from "@agent-tools/core/internal";

/** One allowed host: its name as the URL parser writes it, and the port when one was given. */
export interface AllowedHost {
  readonly hostname: string;
  readonly port?: number;
}

/** The parsed allow-list. */
export interface AllowList {
  readonly hosts: readonly AllowedHost[];
  readonly networks: readonly IpNetwork[];
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

function invalid(option: string, index: number, entry: unknown, form: string): SdkError {
  return new SdkError("invalid_options", `${option}[${index}] ${JSON.stringify(entry)} is not valid; write ${form}.`, { option, index });
}

/** Parses one `allowHosts` entry: `name`, `name:port`, an IP address, `[v6]:port`. */
function parseAllowedHost(entry: unknown, option: string, index: number): AllowedHost {
  const form = `a host name or address with an optional port, e.g. "internal.example", "127.0.0.1:8080" or "[::1]:8080" (no scheme, path or wildcard)`;
  if (typeof entry !== "string" || entry.trim() !== entry || entry === "") throw invalid(option, index, entry, form);
  let url: URL;
  try {
    url = new URL(`http://${entry}`);
  } catch {
    throw invalid(option, index, entry, form);
  }
  const port = /:(\d+)$/.exec(entry)?.[1];
  const expected = `${url.hostname}${port === undefined ? "" : `:${port}`}`;
  // Anything the parser changed or dropped (a path, user info, an odd number form) is refused: the entry must say exactly what it allows.
  if (expected !== entry.toLowerCase() || url.pathname !== "/" || url.username !== "" || url.search !== "") throw invalid(option, index, entry, form);
  const bare = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (parseIpAddress(bare) === undefined && !HOST_NAME.test(bare)) throw invalid(option, index, entry, form);
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw invalid(option, index, entry, form);
  return { hostname: url.hostname, ...(port === undefined ? {} : { port: Number(port) }) };
}

/**
 * Parses `allowHosts` and `allowAddresses`; `optionPrefix` is how messages
 * name them (`webFetch.` from the SDK).
 *
 * @example
 * const allow = parseAllowList({ allowHosts: ["127.0.0.1:8080"], allowAddresses: ["10.20.0.0/16"] });
 */
export function parseAllowList(options: { allowHosts?: unknown; allowAddresses?: unknown }, optionPrefix = ""): AllowList {
  const hostsOption = `${optionPrefix}allowHosts`;
  const addressesOption = `${optionPrefix}allowAddresses`;
  for (const [name, value] of [
    [hostsOption, options.allowHosts],
    [addressesOption, options.allowAddresses],
  ] as const) {
    if (value !== undefined && !Array.isArray(value)) throw new SdkError("invalid_options", `${name} must be an array of strings.`, { option: name });
  }
  const hosts = ((options.allowHosts as unknown[] | undefined) ?? []).map((entry, index) => parseAllowedHost(entry, hostsOption, index));
  const networks = ((options.allowAddresses as unknown[] | undefined) ?? []).map((entry, index) => {
    const network = typeof entry === "string" ? parseIpNetwork(entry) : undefined;
    if (network === undefined) throw invalid(addressesOption, index, entry, `a CIDR block or IP address, e.g. "10.20.0.0/16", "192.168.1.5" or "fd00::/8"`);
    return network;
  });
  return { hosts, networks };
}

/** True when the URL's host (and port, when the entry names one) is allowed. */
export function isHostAllowed(allow: AllowList, url: URL): boolean {
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  return allow.hosts.some((entry) => entry.hostname === url.hostname && (entry.port === undefined || entry.port === port));
}

/** True when `address` (or the IPv4 address it embeds) lies in an allowed network. */
export function isAddressAllowed(allow: AllowList, address: IpAddress, embedded: IpAddress | undefined): boolean {
  return allow.networks.some((network) => networkContains(network, address) || (embedded !== undefined && networkContains(network, embedded)));
}
