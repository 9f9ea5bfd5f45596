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
// The SSH workspace (files over SFTP, processes over exec channels). Its connection and process runner
// alone are at `@agent-tools/ssh/internal`.
export { createSshWorkspace } from "./ssh-workspace.js";
export type { SshWorkspaceOptions } from "./ssh-workspace.js";
