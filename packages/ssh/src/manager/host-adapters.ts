/**
 * The SFTP file system and the process runner of a managed host, on its
 * connection (the same adapters an SSH workspace uses).
 */
import type { ProcessRunner } from "@agent-tools/core";
import type { WorkspaceFileSystem } from "@agent-tools/core/workspace";
import type { SshConnection } from "../connection/ssh-connection.js";
import { createSshProcessRunner } from "../processes/ssh-process-runner.js";
import { SftpFileSystem } from "../sftp-file-system.js";

/** The SFTP file system of `connection` (atomic writes through a temporary file and posix-rename). */
export async function openHostFileSystem(connection: SshConnection): Promise<WorkspaceFileSystem> {
  return new SftpFileSystem(connection);
}

/** A process runner on `connection`'s exec channels: own process group per command, whole-tree kill. */
export async function openHostProcessRunner(connection: SshConnection): Promise<ProcessRunner> {
  return createSshProcessRunner(connection);
}
