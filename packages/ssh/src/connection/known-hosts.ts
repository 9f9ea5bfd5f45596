/**
 * Reads an OpenSSH `known_hosts` file for the keys one host may present,
 * as SHA-256 fingerprints: plain and hashed (`|1|salt|hash`) host fields,
 * `[host]:port` for a port other than 22, `*` / `?` patterns and `!`
 * negations. `@revoked` lines name keys that are refused; `@cert-authority`
 * lines (certificates are not supported) and lines with any other marker
 * (markers are case-sensitive, as in OpenSSH) are skipped.
 */
import { createHash, createHmac } from "node:crypto";

/** What a known_hosts file says about one host. */
export interface KnownHostKeys {
  /** Fingerprints (`SHA256:...`) of the keys it lists for the host. */
  readonly accepted: readonly string[];
  /** Fingerprints of keys marked `@revoked` for the host. */
  readonly revoked: readonly string[];
}

/** The OpenSSH SHA-256 fingerprint of a public key blob: `SHA256:` and unpadded base64. */
export function sshKeyFingerprint(blob: Uint8Array): string {
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/**
 * The keys `text` (a known_hosts file) lists for `host` on `port`.
 *
 * @example
 * knownHostKeys(readFileSync("/home/me/.ssh/known_hosts", "utf8"), "10.0.0.5", 22).accepted; // ["SHA256:..."]
 */
export function knownHostKeys(text: string, host: string, port: number): KnownHostKeys {
  const name = port === 22 ? host.toLowerCase() : `[${host.toLowerCase()}]:${port}`;
  const accepted: string[] = [];
  const revoked: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    let marker: string | undefined;
    if (fields[0]?.startsWith("@")) marker = fields.shift();
    const [hosts, , key] = fields;
    // Markers match case-sensitively, as OpenSSH's: a line with any other marker (`@REVOKED`, `@foo`) is skipped, never an accepted key.
    if (hosts === undefined || key === undefined || (marker !== undefined && marker !== "@revoked")) continue;
    if (!hostFieldMatches(hosts, name)) continue;
    const blob = Buffer.from(key, "base64");
    if (blob.length === 0) continue;
    (marker === "@revoked" ? revoked : accepted).push(sshKeyFingerprint(blob));
  }
  return { accepted, revoked };
}

function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith("|1|")) {
    const [, , salt, hash] = field.split("|");
    if (salt === undefined || hash === undefined) return false;
    return createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest("base64") === hash;
  }
  let matched = false;
  for (const pattern of field.toLowerCase().split(",")) {
    const negated = pattern.startsWith("!");
    if (!wildcardMatches(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function wildcardMatches(pattern: string, name: string): boolean {
  const expression = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${expression}$`).test(name);
}
