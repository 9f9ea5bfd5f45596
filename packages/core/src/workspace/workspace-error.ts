import { CodedError } from "../errors.js";

/** Codes of {@link WorkspaceError}. */
export type WorkspaceErrorCode =
  | "not_found"
  | "exists"
  | "not_a_directory"
  | "is_a_directory"
  | "not_empty"
  | "permission_denied"
  | "symlink_loop"
  | "out_of_bounds"
  | "locked"
  | "unsupported"
  | "connection"
  | "host_key"
  | "io"
  | "closed";

/** Facts of a {@link WorkspaceError}. */
export interface WorkspaceErrorDetails {
  /** The workspace path concerned, if one. */
  path?: string;
  /** The operation (`stat`, `readFile`, `rename`, ...). */
  operation?: string;
  /** The platform's own code (`ENOENT`, SFTP status 2, ...), when there is one. */
  platformCode?: string | number;
  /** Anything else an adapter reports (never credentials). */
  [key: string]: unknown;
}

/**
 * The one error of the Workspace port: every adapter maps its platform's
 * failures (errno, SFTP status codes, a provider's HTTP errors) onto these
 * codes, so tools answer the same on every workspace.
 *
 * @example
 * throw new WorkspaceError("not_found", "/repo/a.ts does not exist", { path: "/repo/a.ts", operation: "stat" });
 */
export class WorkspaceError extends CodedError<WorkspaceErrorCode, WorkspaceErrorDetails> {
  override readonly name = "WorkspaceError";

  constructor(code: WorkspaceErrorCode, message: string, details: WorkspaceErrorDetails = {}, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}

const ERRNO_CODES: Readonly<Record<string, WorkspaceErrorCode>> = {
  ENOENT: "not_found",
  EEXIST: "exists",
  ENOTDIR: "not_a_directory",
  EISDIR: "is_a_directory",
  ENOTEMPTY: "not_empty",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "permission_denied",
  ELOOP: "symlink_loop",
};

/**
 * Maps a Node `fs` error (its `code`, e.g. `ENOENT`) onto a
 * {@link WorkspaceError}; anything unknown becomes `io`. Already mapped
 * errors pass through.
 */
export function workspaceErrorFromErrno(error: unknown, operation: string, path: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  const errno = (error as { code?: unknown } | null)?.code;
  const code = typeof errno === "string" ? (ERRNO_CODES[errno] ?? "io") : "io";
  const reason = error instanceof Error ? error.message : String(error);
  return new WorkspaceError(
    code,
    `${operation} ${path}: ${reason}`,
    { path, operation, platformCode: typeof errno === "string" ? errno : undefined },
    { cause: error },
  );
}
