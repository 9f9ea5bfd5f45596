/**
 * The host-key check of a connection: the key the server presents must be
 * the pinned fingerprint, or one the pinned `known_hosts` file lists (and
 * not marks `@revoked`). Anything else is refused with
 * `WorkspaceError("host_key")` naming the host, the presented fingerprint
 * and what to do; there is no trust on first use.
 */
import { constants, open } from "node:fs/promises";
import { WorkspaceError } from "@agent-tools/core/workspace";
import { knownHostKeys, sshKeyFingerprint } from "./known-hosts.js";
import type { SshHostKey } from "./connection-options.js";

/** The fingerprints a connection accepts, read once per connect. */
export interface AcceptedHostKeys {
  readonly accepted: readonly string[];
  readonly revoked: readonly string[];
  /** Where they come from, for messages (`hostKey` or the known_hosts path). */
  readonly source: string;
}

/** Reads the accepted keys of `host:port` from the pin (a fingerprint, or a known_hosts file read now). */
export async function acceptedHostKeys(pin: SshHostKey, host: string, port: number): Promise<AcceptedHostKeys> {
  if (typeof pin === "string") return { accepted: [pin], revoked: [], source: "hostKey" };
  let text: string;
  try {
    text = await readKnownHostsFile(pin.knownHostsFile);
  } catch (error) {
    throw new WorkspaceError("host_key", `Cannot read the known_hosts file ${pin.knownHostsFile} pinned for ${host}:${port}: ${(error as Error).message}`, {
      host,
      port,
      knownHostsFile: pin.knownHostsFile,
    });
  }
  return { ...knownHostKeys(text, host, port), source: pin.knownHostsFile };
}

/** Largest known_hosts file read. */
const KNOWN_HOSTS_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The text of a known_hosts file: a regular file (a symlink to one is fine)
 * of at most 16 MB. Opened without blocking, so a FIFO, `/dev/zero` or a
 * folder put in its place is refused at once instead of hanging the connect.
 */
async function readKnownHostsFile(file: string): Promise<string> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new Error("it is not a regular file");
    if (stats.size > KNOWN_HOSTS_MAX_BYTES) throw new Error(`it is larger than ${KNOWN_HOSTS_MAX_BYTES} bytes`);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

/** The fingerprint of a presented key blob and whether it is accepted. */
export function checkHostKey(keys: AcceptedHostKeys, blob: Uint8Array): { fingerprint: string; ok: boolean } {
  const fingerprint = sshKeyFingerprint(blob);
  return { fingerprint, ok: keys.accepted.includes(fingerprint) && !keys.revoked.includes(fingerprint) };
}

/** The refusal of a presented key that is not accepted. */
export function hostKeyRefused(keys: AcceptedHostKeys, host: string, port: number, presented: string): WorkspaceError {
  const where = `${host}:${port}`;
  const what = keys.revoked.includes(presented)
    ? `is marked @revoked in ${keys.source}`
    : keys.accepted.length === 0
      ? `is unknown: ${keys.source} lists no key for ${port === 22 ? host : `[${host}]:${port}`}`
      : `does not match the pinned ${keys.accepted.join(", ")} (the key changed, or someone is in the middle)`;
  return new WorkspaceError(
    "host_key",
    `Refused ${where}: the host key it presents, ${presented}, ${what}. Check the server's key out of band (ssh-keygen -l -E sha256 -f /etc/ssh/ssh_host_ed25519_key.pub on the server) and, if it is the right one, pin it with hostKey: "${presented}".`,
    { host, port, presentedFingerprint: presented, pinnedFingerprints: [...keys.accepted], source: keys.source },
  );
}
