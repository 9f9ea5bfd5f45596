/**
 * SFTP failures as `WorkspaceError` codes. SFTP version 3 (OpenSSH) reports
 * few statuses: ENOENT, ENOTDIR and ELOOP all arrive as "no such file",
 * EEXIST, EISDIR and ENOTEMPTY as plain "failure". Where the status is
 * ambiguous, {@link diagnosePath} walks the path with `lstat`/`readlink` to
 * tell not_found from not_a_directory and symlink_loop, and the operation
 * looks at what the path names to tell the rest apart.
 */
import { posix } from "node:path";
import { WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";
import { entryType, type SftpCalls, SftpTimeoutError } from "./sftp-calls.js";

/** SFTP v3 status codes. */
export const SFTP_STATUS = {
  EOF: 1,
  NO_SUCH_FILE: 2,
  PERMISSION_DENIED: 3,
  FAILURE: 4,
  BAD_MESSAGE: 5,
  NO_CONNECTION: 6,
  CONNECTION_LOST: 7,
  OP_UNSUPPORTED: 8,
} as const;

/** Symlinks followed along one path before it counts as a loop (Linux: 40). */
const MAX_SYMLINK_HOPS = 40;

/** The SFTP status of an ssh2 error, if it is one. */
export function sftpStatus(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "number" ? code : undefined;
}

/** The plain mapping of a status (or a lost session) to a code, before any diagnosis. */
export function statusCode(error: unknown): WorkspaceErrorCode {
  if (error instanceof WorkspaceError) return error.code;
  // A request past its deadline: an open that blocks is a FIFO or device (unsupported), anything else an I/O failure.
  if (error instanceof SftpTimeoutError) return error.request === "open" ? "unsupported" : "io";
  switch (sftpStatus(error)) {
    case SFTP_STATUS.NO_SUCH_FILE:
      return "not_found";
    case SFTP_STATUS.PERMISSION_DENIED:
      return "permission_denied";
    case SFTP_STATUS.OP_UNSUPPORTED:
      return "unsupported";
    case SFTP_STATUS.NO_CONNECTION:
    case SFTP_STATUS.CONNECTION_LOST:
      return "connection";
    case undefined:
      // No status: the channel or the connection went away under the request.
      return /No response from server|Channel|Not connected|closed|ECONNRESET|EPIPE/i.test(String((error as Error)?.message)) ? "connection" : "io";
    default:
      return "io";
  }
}

/** Builds the error of `operation` on `path`. */
export function sftpError(code: WorkspaceErrorCode, operation: string, path: string, error?: unknown, detail?: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  const status = sftpStatus(error);
  const reason = detail ?? (error instanceof Error ? error.message : code.replace(/_/g, " "));
  return new WorkspaceError(
    code,
    `${operation} ${path}: ${reason}`,
    { path, operation, ...(status === undefined ? {} : { platformCode: status }) },
    error === undefined ? undefined : { cause: error },
  );
}

/**
 * Walks `path` from `/` with `lstat`, following symlinks (also the last
 * component when `followLast`): `not_found` at the first missing component,
 * `not_a_directory` when a non-directory has components after it,
 * `symlink_loop` past 40 links, `permission_denied` where the walk may not
 * look; `undefined` when the whole path resolves.
 */
export async function diagnosePath(calls: SftpCalls, path: string, followLast = true): Promise<WorkspaceErrorCode | undefined> {
  const pending = path.split("/").filter((part) => part !== "" && part !== ".");
  let resolved = "/";
  let hops = 0;
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name === "..") {
      resolved = posix.dirname(resolved);
      continue;
    }
    const candidate = posix.join(resolved, name);
    let type: ReturnType<typeof entryType>;
    try {
      type = entryType(await calls.lstat(candidate));
    } catch (error) {
      const code = statusCode(error);
      return code === "io" ? "not_found" : code;
    }
    if (type === "symlink" && (pending.length > 0 || followLast)) {
      hops += 1;
      if (hops > MAX_SYMLINK_HOPS) return "symlink_loop";
      let target: string;
      try {
        target = await calls.readlink(candidate);
      } catch (error) {
        return statusCode(error);
      }
      pending.unshift(...target.split("/").filter((part) => part !== "" && part !== "."));
      if (target.startsWith("/")) resolved = "/";
      continue;
    }
    if (pending.length > 0 && type !== "directory") return "not_a_directory";
    resolved = candidate;
  }
  return undefined;
}

/**
 * Maps a failed request on `path`: "no such file" is diagnosed along the
 * path (`followLast` as the request followed the last component); other
 * statuses map directly unless `refine` (given the plain code) says better.
 */
export async function mapSftpError(
  calls: SftpCalls,
  error: unknown,
  operation: string,
  path: string,
  options: { readonly followLast?: boolean; readonly refine?: (code: WorkspaceErrorCode) => Promise<WorkspaceErrorCode | undefined> } = {},
): Promise<WorkspaceError> {
  if (error instanceof WorkspaceError) return error;
  // The session was abandoned: no diagnosis on it, and the timeout's own words say what happened.
  if (error instanceof SftpTimeoutError) return sftpError(statusCode(error), operation, path, error);
  let code = statusCode(error);
  try {
    if (code === "not_found") code = (await diagnosePath(calls, path, options.followLast ?? true)) ?? code;
    if (options.refine) code = (await options.refine(code)) ?? code;
  } catch {
    // The diagnosis itself failed (the session went away): keep the plain code.
  }
  return sftpError(code, operation, path, error, describe(code));
}

function describe(code: WorkspaceErrorCode): string {
  switch (code) {
    case "not_found":
      return "no such file or directory";
    case "not_a_directory":
      return "a component of the path is not a directory";
    case "symlink_loop":
      return "too many levels of symbolic links";
    case "is_a_directory":
      return "is a directory";
    case "not_empty":
      return "directory not empty";
    case "exists":
      return "already exists";
    case "permission_denied":
      return "permission denied";
    case "connection":
      return "the SSH connection was lost during the request";
    case "unsupported":
      return "the SFTP server does not support this request";
    default:
      return "the SFTP server reported a failure";
  }
}

/** The lstat type of `path`, or undefined when it cannot be looked at. */
export async function typeOf(calls: SftpCalls, path: string): Promise<ReturnType<typeof entryType> | undefined> {
  try {
    return entryType(await calls.lstat(path));
  } catch {
    return undefined;
  }
}
