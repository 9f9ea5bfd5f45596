/**
 * The hosts SSHManager may reach, as the host application configures them,
 * and their fail-closed check. Credentials are the host's: the tool uses
 * them to log in and never shows them (not in results, details, errors or
 * logs), and the model can neither read nor supply them.
 */
import { SdkError } from "@agent-tools/core";
import { closestName, shortenForMessage } from "@agent-tools/core/internal";
import { checkHostKeyPin } from "../connection/host-key-pin-check.js";

/**
 * The pinned key of a host: its OpenSSH SHA-256 fingerprint
 * (`SHA256:` and 43 base64 characters, as `ssh-keygen -lf` prints it), or a
 * `known_hosts` file whose entries for the host (plain or hashed, `[host]:port`
 * for a port other than 22) list the keys accepted. An unknown or changed
 * key is refused; there is no trust-on-first-use.
 */
export type SshHostKeyPin = string | { readonly knownHostsFile: string };

/** One host SSHManager may reach. Exactly one of `privateKey`, `privateKeyPath`, `agent` and `password`. */
export interface SshHostConfig {
  /** The id the model names the host by (`[A-Za-z0-9._-]`, 1-64 characters, unique). */
  readonly id: string;
  /** DNS name or address. */
  readonly host: string;
  /** Default 22. */
  readonly port?: number;
  readonly username: string;
  /** A private key (OpenSSH or PEM text). */
  readonly privateKey?: string | Uint8Array;
  /** An absolute path of a private key file on this machine, read when the connection opens. */
  readonly privateKeyPath?: string;
  /** The passphrase of an encrypted `privateKey` / `privateKeyPath`. */
  readonly passphrase?: string;
  /** An SSH agent: its socket path, or `true` for `SSH_AUTH_SOCK`. */
  readonly agent?: string | true;
  /** Password authentication (never keyboard-interactive). */
  readonly password?: string;
  /** The pinned host key (see {@link SshHostKeyPin}); mandatory. */
  readonly hostKey: SshHostKeyPin;
  /** Shown to the model by `list_hosts`. */
  readonly description?: string;
  /** Absolute remote directory: the cwd of `exec` and new sessions, and the base of relative SFTP paths. Default: the login directory. */
  readonly root?: string;
}

/** The keys of {@link SshHostConfig}. */
export const SSH_HOST_CONFIG_KEYS = Object.freeze([
  "id",
  "host",
  "port",
  "username",
  "privateKey",
  "privateKeyPath",
  "passphrase",
  "agent",
  "password",
  "hostKey",
  "description",
  "root",
] as const satisfies readonly (keyof SshHostConfig)[]);

/** The credential keys: exactly one per host. */
export const SSH_CREDENTIAL_KEYS = Object.freeze(["privateKey", "privateKeyPath", "agent", "password"] as const);

/** Keys whose values are secret: never quoted in a message. */
const SECRET_KEYS: ReadonlySet<string> = new Set(["privateKey", "passphrase", "password"]);

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * Checks the `hosts` list fail-closed and returns a frozen copy: an unknown
 * key (with the closest known one), a missing or malformed field, no
 * `hostKey`, no credential or two credentials, a passphrase without a key,
 * a duplicate id, a relative `root` or key path throw `SdkError`
 * (`invalid_options`) whose `details.option` is the field's path (e.g.
 * `ssh.hosts[1].hostKey`). Secret values are never quoted.
 *
 * @example
 * checkSshHostConfigs([{ id: "dev", host: "10.0.0.5", username: "dev", agent: true, hostKey: "SHA256:..." }], "ssh.hosts");
 */
export function checkSshHostConfigs(hosts: unknown, where = "hosts"): readonly SshHostConfig[] {
  if (!Array.isArray(hosts)) throw invalid(where, `${where} must be an array of host objects ({ id, host, username, hostKey, one credential }).`);
  if (hosts.length === 0) throw invalid(where, `${where} is empty: give at least one host, or leave the ssh option out.`);
  const seen = new Set<string>();
  return Object.freeze(
    hosts.map((host, index) => {
      const checked = checkSshHostConfig(host, `${where}[${index}]`);
      if (seen.has(checked.id)) throw invalid(`${where}[${index}].id`, `${where}[${index}].id "${checked.id}" is used by an earlier host; ids must be unique.`);
      seen.add(checked.id);
      return checked;
    }),
  );
}

/** Checks one host (see {@link checkSshHostConfigs}). */
export function checkSshHostConfig(value: unknown, where: string): SshHostConfig {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw invalid(where, `${where} must be an object ({ id, host, username, hostKey, ... }).`);
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if ((SSH_HOST_CONFIG_KEYS as readonly string[]).includes(key)) continue;
    const suggestion = closestName(key, SSH_HOST_CONFIG_KEYS);
    const option = `${where}.${shortenForMessage(key, 60)}`;
    throw new SdkError(
      "invalid_options",
      `Unknown option ${option}${suggestion === undefined ? "" : `: did you mean ${where}.${suggestion}?`} (known: ${SSH_HOST_CONFIG_KEYS.join(", ")}).`,
      { option, ...(suggestion === undefined ? {} : { suggestion: `${where}.${suggestion}` }) },
    );
  }
  const at = (key: string) => `${where}.${key}`;
  const given = (key: string) => config[key] !== undefined;
  const id = requireString(config, "id", where);
  if (!ID_PATTERN.test(id))
    throw invalid(at("id"), `${at("id")} must be 1-64 letters, digits, dots, dashes or underscores, not "${shortenForMessage(id, 60)}".`);
  const host = requireString(config, "host", where);
  if (/\s/.test(host)) throw invalid(at("host"), `${at("host")} must be a host name or address without spaces.`);
  requireString(config, "username", where);
  if (given("port") && !(Number.isInteger(config.port) && (config.port as number) >= 1 && (config.port as number) <= 65535)) {
    throw invalid(at("port"), `${at("port")} must be a whole number from 1 to 65535.`);
  }
  const credentials = SSH_CREDENTIAL_KEYS.filter(given);
  if (credentials.length === 0) {
    throw invalid(where, `${where} has no credential: give exactly one of ${SSH_CREDENTIAL_KEYS.join(", ")} (the tool never asks for one).`, "privateKeyPath");
  }
  if (credentials.length > 1) {
    throw invalid(at(credentials[1]!), `${where} gives ${credentials.join(" and ")}: give exactly one credential, so which one logs in is never a guess.`);
  }
  if (given("privateKey") && !(typeof config.privateKey === "string" || config.privateKey instanceof Uint8Array)) {
    throw invalid(at("privateKey"), `${at("privateKey")} must be the key's text or bytes.`);
  }
  if (given("privateKey") && String(Buffer.from(config.privateKey as string | Uint8Array)).trim() === "")
    throw invalid(at("privateKey"), `${at("privateKey")} is empty.`);
  if (given("privateKeyPath")) requireAbsolute(config, "privateKeyPath", where, /^(\/|[A-Za-z]:[\\/])/);
  if (given("passphrase")) {
    if (typeof config.passphrase !== "string") throw invalid(at("passphrase"), `${at("passphrase")} must be a string.`);
    if (!given("privateKey") && !given("privateKeyPath")) throw invalid(at("passphrase"), `${at("passphrase")} only goes with privateKey or privateKeyPath.`);
  }
  if (given("agent") && config.agent !== true && !(typeof config.agent === "string" && config.agent.startsWith("/"))) {
    throw invalid(at("agent"), `${at("agent")} must be true (SSH_AUTH_SOCK) or the absolute path of the agent's socket.`);
  }
  if (given("password") && (typeof config.password !== "string" || config.password === ""))
    throw invalid(at("password"), `${at("password")} must be a non-empty string.`);
  checkHostKeyPin(config.hostKey, at("hostKey"));
  if (given("description") && typeof config.description !== "string") throw invalid(at("description"), `${at("description")} must be a string.`);
  if (given("root")) requireAbsolute(config, "root", where, /^\//);
  const copy = Object.fromEntries(Object.entries(config).filter(([, entry]) => entry !== undefined));
  if (typeof copy.hostKey === "object") copy.hostKey = Object.freeze({ ...(copy.hostKey as object) });
  return Object.freeze(copy) as unknown as SshHostConfig;
}

function requireString(config: Record<string, unknown>, key: string, where: string): string {
  const value = config[key];
  if (typeof value !== "string" || value.trim() === "") {
    const shown = SECRET_KEYS.has(key) || value === undefined ? "" : ` (got ${typeof value === "string" ? "an empty string" : typeof value})`;
    throw invalid(`${where}.${key}`, `${where}.${key} must be a non-empty string${shown}.`);
  }
  return value;
}

function requireAbsolute(config: Record<string, unknown>, key: string, where: string, absolute: RegExp): void {
  const value = requireString(config, key, where);
  if (!absolute.test(value)) throw invalid(`${where}.${key}`, `${where}.${key} must be an absolute path, not "${shortenForMessage(value, 120)}".`);
}

function invalid(option: string, message: string, suggestion?: string): SdkError {
  return new SdkError("invalid_options", message, { option, ...(suggestion === undefined ? {} : { suggestion: `${option}.${suggestion}` }) });
}
