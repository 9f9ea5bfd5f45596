/**
 * `@agent-tools/ssh/internal`: the parts the SSH workspace is built from, for
 * the workspace packages, benches and tests: one pinned, authenticated
 * connection ({@link SshConnection}) and the ProcessRunner on its exec
 * channels ({@link createSshProcessRunner}). No semver promise to hosts;
 * hosts use `createSshWorkspace`.
 *
 * @packageDocumentation
 */
export { SshConnection } from "./connection/ssh-connection.js";
export type { SshConnectionOptions } from "./connection/connection-options.js";
export { createSshProcessRunner } from "./processes/ssh-process-runner.js";
export type { SshRunningProcess } from "./processes/ssh-running-process.js";
