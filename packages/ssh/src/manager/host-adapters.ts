/**
 * The SFTP file system and the process runner of a managed host, on its
 * connection (the same adapters an SSH workspace uses).
 */
import { type ProcessRunner, ToolError } from "@agent-tools/core";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";
import type { SshConnection } from "../connection/ssh-connection.js";

/** The SFTP file system of `connection` (pending: the SFTP adapter of the SSH workspace). */
export async function openHostFileSystem(connection: SshConnection): Promise<WorkspaceFileSystem> {
  void connection;
  throw new ToolError("unavailable", "SFTP actions are not available in this build.", { recoverable: false });
}

/** A process runner on `connection`'s exec channels (pending: the SSH process runner). */
export async function openHostProcessRunner(connection: SshConnection): Promise<ProcessRunner> {
  void connection;
  throw new ToolError("unavailable", "exec is not available in this build.", { recoverable: false });
}
