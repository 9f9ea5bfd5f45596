/**
 * SSHManager's results: text for the model, typed details for hosts, and
 * the mapping of failures (workspace errors, connection errors) onto tool
 * errors that say what to do next.
 */
import { type ToolOutput, ToolError, type ToolErrorCode } from "@agent-tools/core";
import { WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";
import type { ShellSessionInfo } from "./shell-sessions.js";
import type { SshManagerAction } from "./ssh-manager-schema.js";

/** The details of every SSHManager result. */
export interface SshManagerDetails {
  readonly action: SshManagerAction;
  readonly hostId?: string;
  readonly sessionId?: string;
  /** list_hosts. */
  readonly hosts?: ReadonlyArray<{
    readonly id: string;
    readonly address: string;
    readonly username: string;
    readonly description?: string;
    readonly root?: string;
  }>;
  /** list_sessions, create_session, close_session. */
  readonly sessions?: readonly ShellSessionInfo[];
  /** create_session: whether an open session was reused. */
  readonly reused?: boolean;
  /** read_session / exec / sftp_read_text: bytes returned, bytes left or cut off. */
  readonly bytes?: number;
  readonly remainingBytes?: number;
  readonly droppedBytes?: number;
  readonly truncated?: boolean;
  /** exec. */
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly timedOut?: boolean;
  /** sftp_*: the remote path acted on (absolute). */
  readonly path?: string;
  readonly to?: string;
  /** sftp_list. */
  readonly entries?: ReadonlyArray<{ readonly name: string; readonly type: string }>;
  /** sftp_stat. */
  readonly stat?: { readonly type: string; readonly size: number; readonly mtimeMs: number; readonly mode: string };
  /** sftp_read_text: the file's size. */
  readonly size?: number;
}

/** A successful result. */
export function sshResult(text: string, details: SshManagerDetails): ToolOutput<SshManagerDetails> {
  return { content: text, details };
}

const WORKSPACE_TO_TOOL: Readonly<Record<WorkspaceErrorCode, ToolErrorCode>> = {
  not_found: "not_found",
  exists: "conflict",
  not_a_directory: "not_a_directory",
  is_a_directory: "not_a_file",
  not_empty: "conflict",
  permission_denied: "permission_denied",
  symlink_loop: "invalid_path",
  out_of_bounds: "out_of_bounds",
  locked: "conflict",
  unsupported: "unavailable",
  connection: "unavailable",
  host_key: "permission_denied",
  io: "io",
  closed: "unavailable",
};

const NEXT_STEP: Partial<Record<WorkspaceErrorCode, string>> = {
  not_found: "check the path with sftp_list or sftp_stat",
  exists: "pick another path, or delete the existing entry first",
  not_a_directory: "a component of the path is a file; check it with sftp_stat",
  is_a_directory: "the path is a directory; use sftp_list",
  not_empty: "sftp_delete removes only empty directories; delete the entries inside first",
  permission_denied: "the remote account may not do this",
};

/**
 * A ToolError for a failure of a remote operation: WorkspaceErrors keep
 * their meaning (`not_found`, `permission_denied`, ...) with a next step;
 * ToolErrors pass through; anything else is `io`.
 */
export function remoteFailure(error: unknown, hostId: string, what: string): ToolError {
  if (error instanceof ToolError) return error;
  if (error instanceof WorkspaceError) {
    const next = NEXT_STEP[error.code];
    const recoverable = !["connection", "host_key", "closed"].includes(error.code);
    return new ToolError(WORKSPACE_TO_TOOL[error.code], `${what} on ${hostId} failed: ${error.message}${next === undefined ? "" : ` (${next}).`}`, {
      recoverable,
      details: { hostId, workspaceCode: error.code },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError("io", `${what} on ${hostId} failed: ${message}`, { details: { hostId } });
}

/** `1.2 KB`-style size for texts. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
