/**
 * The SFTP file system and the process runner of a managed host, on its
 * connection (the same adapters an SSH workspace uses).
 */
import { type ProcessRunner, ToolError } from "@agent-tools/core";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";
import type { SshConnection } from "../connection/ssh-connection.js";
import { createSshProcessRunner } from "../processes/ssh-process-runner.js";

/** The SFTP file system of `connection` (pending: the SFTP adapter of the SSH workspace). */
export async function openHostFileSystem(connection: SshConnection): Promise<WorkspaceFileSystem> {
  void connection;
  throw new ToolError("unavailable", "SFTP actions are not available in this build.", { recoverable: false });
}

/** A process runner on `connection`'s exec channels: own process group per command, whole-tree kill. */
export async function openHostProcessRunner(connection: SshConnection): Promise<ProcessRunner> {
  return createSshProcessRunner(connection);
}
