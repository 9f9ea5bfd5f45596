/**
 * The checks the Streamable HTTP listener makes before the MCP transport sees
 * a request: the `Host` header (DNS rebinding), the browser `Origin`, and the
 * bearer token. Pure functions over header values, built once per listener.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import os from "node:os";

/** The names every listener answers to on its own port. */
const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];
const WILDCARD_ADDRESSES = new Set(["0.0.0.0", "::", "[::]"]);
/** `name` or `name:port`, the name a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)(?::(\d{1,5}))?$/;

/** The request guards of one listener. */
export interface RequestGuards {
  /** True when the `Host` header names this server (see {@link createRequestGuards}). */
  hostAllowed(host: string | undefined): boolean;
  /** True when there is no `Origin` (a non-browser client) or it is an allowed one. */
  originAllowed(origin: string | undefined): boolean;
  /** True when no token is required, or `authorization` is `Bearer <token>` (scheme in any case) with the right token. */
  authorized(authorization: string | undefined): boolean;
}

/** What {@link createRequestGuards} needs: the bound address and port, and the host's extra entries. */
export interface RequestGuardSettings {
  /** The address the listener bound (`127.0.0.1`, `::`, `mybox.lan`, ...). */
  boundHost: string;
  /** The port it bound. */
  port: number;
  /** Extra Host entries: `name` (any port) or `name:port`, lower-case. */
  extraHosts: readonly string[];
  /** Extra browser origins, lower-case. */
  extraOrigins: readonly string[];
  bearerToken?: string;
}

/**
 * Builds the guards of a listener.
 *
 * - Host: the loopback names (`127.0.0.1`, `localhost`, `[::1]`) and the bound
 *   address, each with the bound port; for a wildcard bind (`0.0.0.0`, `::`)
 *   also every address of this machine's interfaces with the port; plus
 *   `extraHosts`. A Host without a port means port 80. This is what keeps a
 *   DNS-rebinding page (whose requests carry `Host: evil.example`) out.
 * - Origin: `http://` plus each of the server's own host names with the port,
 *   plus `extraOrigins`.
 * - Bearer: both sides hashed with SHA-256 and compared in constant time, so
 *   neither the token nor its length leaks through timing.
 *
 * @example
 * const guards = createRequestGuards({ boundHost: "127.0.0.1", port: 8123, extraHosts: [], extraOrigins: [] });
 * guards.hostAllowed("evil.example:8123"); // false
 */
export function createRequestGuards(settings: RequestGuardSettings): RequestGuards {
  const { port } = settings;
  const ownNames = new Set(LOOPBACK_NAMES);
  const bound = bracketed(settings.boundHost.toLowerCase());
  if (WILDCARD_ADDRESSES.has(bound)) for (const address of interfaceAddresses()) ownNames.add(address);
  else ownNames.add(bound);

  const exact = new Set([...ownNames].map((name) => `${name}:${port}`));
  const anyPort = new Set<string>();
  for (const entry of settings.extraHosts) {
    const match = HOST_VALUE.exec(entry);
    if (!match) continue;
    if (match[2] === undefined) anyPort.add(match[1]!);
    else exact.add(`${match[1]}:${Number(match[2])}`);
  }
  const origins = new Set([...[...ownNames].map((name) => `http://${name}:${port}`), ...settings.extraOrigins]);
  const expectedDigest = settings.bearerToken === undefined ? undefined : digest(settings.bearerToken);

  return {
    hostAllowed(host) {
      if (typeof host !== "string") return false;
      const match = HOST_VALUE.exec(host.trim().toLowerCase());
      if (!match) return false;
      const name = match[1]!;
      return anyPort.has(name) || exact.has(`${name}:${match[2] === undefined ? 80 : Number(match[2])}`);
    },
    originAllowed(origin) {
      return origin === undefined || origins.has(origin.toLowerCase());
    },
    authorized(authorization) {
      if (expectedDigest === undefined) return true;
      // RFC 7235: the scheme is case-insensitive, separated from the credentials by one or more spaces.
      const match = typeof authorization === "string" ? /^\s*bearer +(\S+)\s*$/i.exec(authorization) : null;
      // Hash even a missing token, so a refusal takes as long as a comparison.
      return timingSafeEqual(digest(match?.[1] ?? ""), expectedDigest) && match !== null;
    },
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

/** IPv6 addresses in brackets, as they appear in a Host header. */
function bracketed(address: string): string {
  return address.includes(":") && !address.startsWith("[") ? `[${address}]` : address;
}

/** Every address of this machine's interfaces (link-local IPv6 with a zone left out: no Host header can name it). */
function interfaceAddresses(): string[] {
  const addresses: string[] = [];
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === "IPv6" && entry.scopeid) continue;
      addresses.push(bracketed(entry.address.toLowerCase()));
    }
  }
  return addresses;
}
