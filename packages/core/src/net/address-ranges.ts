/**
 * Which IP addresses are not on the public internet: loopback, private,
 * link-local (cloud metadata), shared (CGNAT), multicast, broadcast,
 * reserved and documentation ranges, and IPv6 forms that embed an IPv4
 * address (mapped, compatible, NAT64, 6to4, Teredo). Pure.
 */
import { type IpAddress, type IpNetwork, formatIpAddress, networkContains, parseIpNetwork } from "./ip-address.js";

/** Why an address is not public: its range, and the IPv4 address an IPv6 form embeds. */
export interface NonPublicAddress {
  /** The range: `loopback`, `private`, `link-local (cloud metadata)`, `IPv4-mapped IPv6`, ... */
  readonly range: string;
  /** The range as a noun phrase for messages: `a loopback address`, `an IPv4-mapped IPv6 address embedding 127.0.0.1 (loopback)`. */
  readonly description: string;
  /** For IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4): that address. */
  readonly embeddedIpv4?: IpAddress;
}

function article(phrase: string): string {
  return /^[aeiouAEIOU]/.test(phrase) ? "an" : "a";
}

function plain(range: string): NonPublicAddress {
  return { range, description: `${article(range)} ${range} address` };
}

function ranges(list: ReadonlyArray<readonly [string, string]>): ReadonlyArray<readonly [IpNetwork, string]> {
  return list.map(([cidr, range]) => [parseIpNetwork(cidr) as IpNetwork, range] as const);
}

/** IPv4 ranges that are not public, most specific first where they nest. */
const IPV4_RANGES = ranges([
  ["255.255.255.255/32", "broadcast"],
  ["0.0.0.0/8", '"this network"'],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "shared (carrier-grade NAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local (cloud metadata)"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignment"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
]);

/** IPv6 ranges that are not public and embed no IPv4 address. */
const IPV6_RANGES = ranges([
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["64:ff9b:1::/48", "local-use NAT64"],
  ["100::/64", "discard-only"],
  ["2001::/32", "Teredo tunnel"],
  ["2001:db8::/32", "documentation"],
  ["fc00::/7", "unique local (private)"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local"],
  ["ff00::/8", "multicast"],
]);

const IPV4_MAPPED = parseIpNetwork("::ffff:0:0/96") as IpNetwork;
const IPV4_COMPATIBLE = parseIpNetwork("::/96") as IpNetwork;
const NAT64 = parseIpNetwork("64:ff9b::/96") as IpNetwork;
const SIX_TO_FOUR = parseIpNetwork("2002::/16") as IpNetwork;

function ipv4At(bytes: Uint8Array, offset: number): IpAddress {
  return { family: 4, bytes: bytes.slice(offset, offset + 4) };
}

function classifyIpv4(address: IpAddress): string | undefined {
  return IPV4_RANGES.find(([network]) => networkContains(network, address))?.[1];
}

/** An IPv6 form carrying an IPv4 address: refused when the IPv4 address is not public (or always, for `kind` deprecated forms). */
function embedded(kind: string, inner: IpAddress, alwaysRefused: boolean): NonPublicAddress | undefined {
  const innerRange = classifyIpv4(inner);
  if (innerRange === undefined && !alwaysRefused) return undefined;
  const what = innerRange === undefined ? "" : ` (${innerRange})`;
  return { range: kind, description: `${article(kind)} ${kind} address embedding ${formatIpAddress(inner)}${what}`, embeddedIpv4: inner };
}

/**
 * Why `address` is not a public address, or undefined when it is. IPv6
 * forms embedding an IPv4 address are judged by that address (a mapped
 * `::ffff:8.8.8.8` is public, `::ffff:127.0.0.1` is loopback); the
 * deprecated IPv4-compatible form `::a.b.c.d` is always refused.
 *
 * @example
 * classifyAddress(parseIpAddress("169.254.169.254")!); // { range: "link-local (cloud metadata)", description: "a link-local (cloud metadata) address" }
 * classifyAddress(parseIpAddress("93.184.216.34")!); // undefined
 */
export function classifyAddress(address: IpAddress): NonPublicAddress | undefined {
  if (address.family === 4) {
    const range = classifyIpv4(address);
    return range === undefined ? undefined : plain(range);
  }
  const direct = IPV6_RANGES.find(([network]) => networkContains(network, address))?.[1];
  if (direct !== undefined) return plain(direct);
  if (networkContains(IPV4_MAPPED, address)) return embedded("IPv4-mapped IPv6", ipv4At(address.bytes, 12), false);
  if (networkContains(IPV4_COMPATIBLE, address)) return embedded("IPv4-compatible IPv6 (deprecated)", ipv4At(address.bytes, 12), true);
  if (networkContains(NAT64, address)) return embedded("NAT64", ipv4At(address.bytes, 12), false);
  if (networkContains(SIX_TO_FOUR, address)) return embedded("6to4", ipv4At(address.bytes, 2), false);
  return undefined;
}

/**
 * The IPv4 address an IPv4-mapped IPv6 address stands for (`::ffff:a.b.c.d`
 * connects to `a.b.c.d`), else undefined.
 */
export function mappedIpv4Of(address: IpAddress): IpAddress | undefined {
  return address.family === 6 && networkContains(IPV4_MAPPED, address) ? ipv4At(address.bytes, 12) : undefined;
}
