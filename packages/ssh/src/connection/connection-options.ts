/**
 * The options of an SSH connection and their fail-closed check: an unknown
 * key, a missing host key, no credential or two, a malformed value throw
 * `SdkError("invalid_options")` naming the option. Secret values
 * (`privateKey`, `passphrase`, `password`) are never quoted.
 */
import { SdkError } from "@agent-tools/core";
import { closestName, shortenForMessage } from "@agent-tools/core/internal";
import { checkHostKeyPin } from "./host-key-pin-check.js";

/**
 * The pinned key of the server: its OpenSSH SHA-256 fingerprint
 * (`SHA256:` and 43 base64 characters, as `ssh-keygen -l -E sha256 -f` prints
 * it), or a `known_hosts` file whose entries for the host list the keys
 * accepted. There is no trust on first use.
 */
export type SshHostKey = string | { readonly knownHostsFile: string };

/** Options of {@link SshConnection}. Exactly one of `privateKey`, `agent`, `password`. */
export interface SshConnectionOptions {
  /** DNS name or address. */
  readonly host: string;
  /** Default 22. */
  readonly port?: number;
  readonly username: string;
  /** A private key (OpenSSH or PEM text, or its bytes). */
  readonly privateKey?: string | Uint8Array;
  /** The passphrase of an encrypted `privateKey`. */
  readonly passphrase?: string;
  /** An SSH agent: its socket path, or `true` for `SSH_AUTH_SOCK`. */
  readonly agent?: string | true;
  /** Password authentication (keyboard-interactive is never used). */
  readonly password?: string;
  /** The pinned host key; mandatory. */
  readonly hostKey: SshHostKey;
  /** SSH keepalive interval; default 15,000 ms (0 = none). A dead peer is noticed after three missed answers. */
  readonly keepaliveIntervalMs?: number;
  /** How long the handshake and login may take; default 20,000 ms. */
  readonly readyTimeoutMs?: number;
  /**
   * Channels open at once (SFTP, exec); more wait in a queue. Default 8,
   * below OpenSSH's `MaxSessions` default of 10; at least 3 (the SFTP
   * session and a process runner's control channel hold one each).
   */
  readonly maxChannels?: number;
  /** Attempts to reconnect a dropped connection before giving up (`connection`); default 4, back-off 250 ms doubling to 4 s. */
  readonly reconnectAttempts?: number;
  /**
   * How long one SFTP request may go unanswered; default 30,000 ms. Past it
   * the call rejects (`io`, or `unsupported` for an open, which blocks on a
   * FIFO), the stuck SFTP session is closed and the next call opens a new one.
   */
  readonly sftpTimeoutMs?: number;
}

/** The keys of {@link SshConnectionOptions}. */
export const SSH_CONNECTION_OPTION_KEYS = Object.freeze([
  "host",
  "port",
  "username",
  "privateKey",
  "passphrase",
  "agent",
  "password",
  "hostKey",
  "keepaliveIntervalMs",
  "readyTimeoutMs",
  "maxChannels",
  "reconnectAttempts",
  "sftpTimeoutMs",
] as const satisfies readonly (keyof SshConnectionOptions)[]);

const CREDENTIAL_KEYS = ["privateKey", "agent", "password"] as const;
/** The checked options, defaults filled in. */
export interface ResolvedSshConnectionOptions extends SshConnectionOptions {
  readonly port: number;
  readonly keepaliveIntervalMs: number;
  readonly readyTimeoutMs: number;
  readonly maxChannels: number;
  readonly reconnectAttempts: number;
  readonly sftpTimeoutMs: number;
}

/**
 * Checks `value` as {@link SshConnectionOptions} (see the module comment);
 * `where` prefixes option names in messages (e.g. `ssh`).
 *
 * @example
 * checkSshConnectionOptions({ host: "10.0.0.5", username: "dev", agent: true, hostKey: "SHA256:..." });
 */
export function checkSshConnectionOptions(
  value: unknown,
  known: readonly string[] = SSH_CONNECTION_OPTION_KEYS,
  where = "options",
): ResolvedSshConnectionOptions {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw invalid(where, `${where} must be an object ({ host, username, hostKey, one credential }).`);
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    const option = `${where}.${shortenForMessage(key, 60)}`;
    throw new SdkError(
      "invalid_options",
      `Unknown option ${option}${suggestion === undefined ? "" : `: did you mean ${where}.${suggestion}?`} (known: ${known.join(", ")}).`,
      { option, ...(suggestion === undefined ? {} : { suggestion: `${where}.${suggestion}` }) },
    );
  }
  const at = (key: string) => `${where}.${key}`;
  const given = (key: string) => config[key] !== undefined;
  for (const key of ["host", "username"]) {
    if (typeof config[key] !== "string" || (config[key] as string).trim() === "" || /\s/.test(config[key] as string)) {
      throw invalid(at(key), `${at(key)} must be a non-empty string without spaces.`);
    }
  }
  const credentials = CREDENTIAL_KEYS.filter(given);
  if (credentials.length !== 1) {
    throw invalid(
      credentials.length === 0 ? where : at(credentials[1] ?? "privateKey"),
      credentials.length === 0
        ? `${where} has no credential: give exactly one of privateKey, agent, password (keyboard-interactive login is not supported).`
        : `${where} gives ${credentials.join(" and ")}: give exactly one credential, so which one logs in is never a guess.`,
    );
  }
  if (given("privateKey") && !(typeof config.privateKey === "string" || config.privateKey instanceof Uint8Array)) {
    throw invalid(at("privateKey"), `${at("privateKey")} must be the key's text or bytes.`);
  }
  if (
    given("privateKey") &&
    Buffer.from(config.privateKey as string | Uint8Array)
      .toString("utf8")
      .trim() === ""
  )
    throw invalid(at("privateKey"), `${at("privateKey")} is empty.`);
  if (given("passphrase") && (typeof config.passphrase !== "string" || !given("privateKey"))) {
    throw invalid(at("passphrase"), `${at("passphrase")} must be a string and only goes with privateKey.`);
  }
  if (given("agent") && config.agent !== true && !(typeof config.agent === "string" && config.agent.startsWith("/"))) {
    throw invalid(at("agent"), `${at("agent")} must be true (SSH_AUTH_SOCK) or the absolute path of the agent's socket.`);
  }
  if (given("password") && (typeof config.password !== "string" || config.password === ""))
    throw invalid(at("password"), `${at("password")} must be a non-empty string.`);
  checkHostKeyPin(config.hostKey, at("hostKey"));
  const port = integer(config, "port", where, 1, 65_535) ?? 22;
  return Object.freeze({
    ...(config as unknown as SshConnectionOptions),
    port,
    keepaliveIntervalMs: integer(config, "keepaliveIntervalMs", where, 0, 3_600_000) ?? 15_000,
    readyTimeoutMs: integer(config, "readyTimeoutMs", where, 1, 600_000) ?? 20_000,
    // The SFTP session and a process runner's control channel hold one each while open: fewer than 3 would starve the processes.
    maxChannels: integer(config, "maxChannels", where, 3, 1_000) ?? 8,
    reconnectAttempts: integer(config, "reconnectAttempts", where, 0, 100) ?? 4,
    sftpTimeoutMs: integer(config, "sftpTimeoutMs", where, 100, 3_600_000) ?? 30_000,
  });
}

function integer(config: Record<string, unknown>, key: string, where: string, min: number, max: number): number | undefined {
  const value = config[key];
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw invalid(`${where}.${key}`, `${where}.${key} must be a whole number from ${min} to ${max}.`);
  }
  return value as number;
}

function invalid(option: string, message: string): SdkError {
  return new SdkError("invalid_options", message, { option });
}
