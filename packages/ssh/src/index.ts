/**
 * @agent-tools/ssh: the SSH adapter of the Workspace port. Files go over
 * SFTP, processes over exec channels of one pinned, authenticated
 * connection (ssh2).
 *
 * @packageDocumentation
 */
// SSHManager (chat-scope tool on configured hosts).
export { sshManagerTools } from "./manager/ssh-manager-plugin.js";
export type { SshManagerToolsOptions } from "./manager/ssh-manager-plugin.js";
export { checkSshHostConfigs, SSH_HOST_CONFIG_KEYS } from "./manager/ssh-host-config.js";
export type { SshHostConfig, SshHostKeyPin } from "./manager/ssh-host-config.js";
export { SSH_MANAGER_ACTIONS, sshManagerInputSchema } from "./manager/ssh-manager-schema.js";
export type { SshManagerAction, SshManagerInput } from "./manager/ssh-manager-schema.js";
export type { SshManagerDetails } from "./manager/ssh-manager-output.js";
// Processes on the remote machine (the SSH workspace's ProcessRunner).
export { createSshProcessRunner } from "./processes/ssh-process-runner.js";
export type { SshRunningProcess } from "./processes/ssh-running-process.js";
