/**
 * IP addresses and CIDR blocks as bytes: strict parsing of the canonical
 * text forms (what the WHATWG URL parser and the resolver hand back), and
 * prefix matching. Pure.
 */

/** An IPv4 (4 bytes) or IPv6 (16 bytes) address. */
export interface IpAddress {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
}

/** A CIDR block: the network's bytes and the prefix length in bits. */
export interface IpNetwork {
  readonly family: 4 | 6;
  readonly bytes: Uint8Array;
  readonly prefixLength: number;
  /** As the host wrote it, for messages. */
  readonly text: string;
}

const IPV4_PART = /^(0|[1-9]\d{0,2})$/;

/** Parses a dotted-quad IPv4 address (`127.0.0.1`); undefined for any other form. */
export function parseIpv4(text: string): IpAddress | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (const [index, part] of parts.entries()) {
    if (!IPV4_PART.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[index] = value;
  }
  return { family: 4, bytes };
}

/**
 * Parses an IPv6 address (`::1`, `fe80::1%eth0`, `::ffff:127.0.0.1`,
 * `[2001:db8::1]`); a zone id is dropped. Undefined when it is not one.
 */
export function parseIpv6(text: string): IpAddress | undefined {
  let value = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = value.indexOf("%");
  if (zone !== -1) value = value.slice(0, zone);
  if (value === "" || !/^[0-9a-fA-F:.]+$/.test(value)) return undefined;
  const halves = value.split("::");
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string, last: boolean): number[] | undefined => {
    if (half === "") return [];
    const groups: number[] = [];
    const pieces = half.split(":");
    for (const [index, piece] of pieces.entries()) {
      if (piece.includes(".")) {
        // An embedded IPv4 address: only as the last piece of the whole address.
        const v4 = last && index === pieces.length - 1 ? parseIpv4(piece) : undefined;
        if (v4 === undefined) return undefined;
        groups.push(((v4.bytes[0] as number) << 8) | (v4.bytes[1] as number), ((v4.bytes[2] as number) << 8) | (v4.bytes[3] as number));
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
      groups.push(Number.parseInt(piece, 16));
    }
    return groups;
  };
  const head = groupsOf(halves[0] as string, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1] as string, true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  for (const [index, group] of groups.entries()) {
    bytes[index * 2] = group >> 8;
    bytes[index * 2 + 1] = group & 0xff;
  }
  return { family: 6, bytes };
}

/** Parses either family; undefined when `text` is not an IP address. */
export function parseIpAddress(text: string): IpAddress | undefined {
  return parseIpv4(text) ?? parseIpv6(text);
}

/** The text form of an address (`127.0.0.1`; IPv6 as eight lower-case groups joined, `::` for the longest zero run). */
export function formatIpAddress(address: IpAddress): string {
  if (address.family === 4) return [...address.bytes].join(".");
  const groups: number[] = [];
  for (let index = 0; index < 16; index += 2) groups.push(((address.bytes[index] as number) << 8) | (address.bytes[index + 1] as number));
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > bestLength && end - start > 1) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/**
 * Parses a CIDR block (`10.0.0.0/8`, `fd00::/8`) or a single address (a
 * /32 or /128). Undefined when malformed or when host bits are set past
 * the prefix (`10.0.0.1/8`: a typo more often than not).
 */
export function parseIpNetwork(text: string): IpNetwork | undefined {
  const slash = text.indexOf("/");
  const address = parseIpAddress(slash === -1 ? text : text.slice(0, slash));
  if (address === undefined) return undefined;
  const maxLength = address.family === 4 ? 32 : 128;
  let prefixLength = maxLength;
  if (slash !== -1) {
    const suffix = text.slice(slash + 1);
    if (!/^(0|[1-9]\d{0,2})$/.test(suffix)) return undefined;
    prefixLength = Number(suffix);
    if (prefixLength > maxLength) return undefined;
  }
  for (let bit = prefixLength; bit < maxLength; bit += 1) if (bitAt(address.bytes, bit)) return undefined;
  return { family: address.family, bytes: address.bytes, prefixLength, text };
}

/** True when `address` lies inside `network` (same family only). */
export function networkContains(network: Pick<IpNetwork, "family" | "bytes" | "prefixLength">, address: IpAddress): boolean {
  if (network.family !== address.family) return false;
  const fullBytes = Math.floor(network.prefixLength / 8);
  for (let index = 0; index < fullBytes; index += 1) if (network.bytes[index] !== address.bytes[index]) return false;
  const rest = network.prefixLength % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((network.bytes[fullBytes] as number) & mask) === ((address.bytes[fullBytes] as number) & mask);
}

function bitAt(bytes: Uint8Array, bit: number): boolean {
  return (((bytes[bit >> 3] as number) >> (7 - (bit & 7))) & 1) === 1;
}
