/** The SSH connection: options, host-key check, channel cap, reconnect. */
export { SshConnection } from "./ssh-connection.js";
export type { SshExecChannel } from "./ssh-connection.js";
export { checkSshConnectionOptions, SSH_CONNECTION_OPTION_KEYS } from "./connection-options.js";
export type { ResolvedSshConnectionOptions, SshConnectionOptions, SshHostKey } from "./connection-options.js";
