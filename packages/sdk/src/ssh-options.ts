/**
 * The `ssh` option of `buildBuiltinToolRegistry`: the hosts SSHManager may
 * reach. The types mirror `@agent-tools/ssh`'s (an optional peer the sdk's
 * declarations never name); the package checks each host fail-closed when
 * the registry is built.
 */
import { SdkError } from "@agent-tools/core";
import { type OptionKeyList, checkOptionObject } from "./option-keys.js";

/** One host SSHManager may reach (the same shape as `SshHostConfig` of `@agent-tools/ssh`). Exactly one of `privateKey`, `privateKeyPath`, `agent`, `password`. */
export interface SdkSshHostConfig {
  /** The id the model names the host by (`[A-Za-z0-9._-]`, 1-64 characters, unique). */
  readonly id: string;
  /** DNS name or address. */
  readonly host: string;
  /** Default 22. */
  readonly port?: number;
  readonly username: string;
  /** A private key (OpenSSH or PEM text, or its bytes). */
  readonly privateKey?: string | Uint8Array;
  /** An absolute path of a private key file on this machine, read when the connection opens. */
  readonly privateKeyPath?: string;
  /** The passphrase of an encrypted `privateKey` / `privateKeyPath`. */
  readonly passphrase?: string;
  /** An SSH agent: the absolute path of its socket, or `true` for `SSH_AUTH_SOCK`. */
  readonly agent?: string | true;
  /** Password authentication (keyboard-interactive is never used). */
  readonly password?: string;
  /** The pinned host key: `"SHA256:..."` (as `ssh-keygen -l -E sha256` prints it) or `{ knownHostsFile }`; mandatory, no trust on first use. */
  readonly hostKey: string | { readonly knownHostsFile: string };
  /** Shown to the model by `list_hosts`. */
  readonly description?: string;
  /** Absolute remote directory: the cwd of `exec` and new sessions and the base of relative SFTP paths; default the login directory. */
  readonly root?: string;
}

/** The `ssh` option: SSHManager (chat scope) on these hosts; needs the optional package `@agent-tools/ssh`. */
export interface SdkSshOptions {
  /** At least one host. Credentials are used to log in and never shown to the model. */
  readonly hosts: readonly SdkSshHostConfig[];
}

/** The keys of {@link SdkSshOptions}. */
export const SSH_OPTION_KEYS = { hosts: true } as const satisfies OptionKeyList<SdkSshOptions>;

/**
 * Checks the `ssh` option's shape before anything is built: an object with
 * only `hosts`, a non-empty array (each host is checked by `@agent-tools/ssh`
 * when the registry is built). Throws `SdkError` (`invalid_options`).
 */
export function checkSdkSshOptions(value: unknown, where: string): void {
  const ssh = checkOptionObject(value, SSH_OPTION_KEYS, where);
  if (ssh === undefined) return;
  if (!Array.isArray(ssh.hosts) || ssh.hosts.length === 0) {
    throw new SdkError(
      "invalid_options",
      `${where}.hosts must be a non-empty array of hosts ({ id, host, username, hostKey, one credential }); leave ${where} out for no SSHManager.`,
      { option: `${where}.hosts` },
    );
  }
}
