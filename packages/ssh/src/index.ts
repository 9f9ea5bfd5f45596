/**
 * @agent-tools/ssh: the SSH adapter of the Workspace port. Files go over
 * SFTP, processes over exec channels of one pinned, authenticated
 * connection (ssh2).
 *
 * @packageDocumentation
 */
// SSHManager (chat-scope tool on configured hosts).
export { sshManagerTools } from "./manager/ssh-manager-plugin.js";
export type { SshHostConfig } from "./manager/ssh-host-config.js";
export type { SshManagerDetails } from "./manager/ssh-manager-output.js";
// Processes on the remote machine (the SSH workspace's ProcessRunner).
export { createSshProcessRunner } from "./processes/ssh-process-runner.js";
export type { SshRunningProcess } from "./processes/ssh-running-process.js";
// The SSH workspace (files over SFTP, processes over exec channels) and its connection.
export { createSshWorkspace } from "./ssh-workspace.js";
export type { SshWorkspaceOptions } from "./ssh-workspace.js";
export { SshConnection } from "./connection/ssh-connection.js";
export type { SshConnectionOptions } from "./connection/connection-options.js";
