/**
 * The anchored helper's failure codes (errno names and its own `OUTSIDE`,
 * `MOVED`, `NOTREG`, `ABORTED`) as `WorkspaceError` codes.
 */
import { WorkspaceError, type WorkspaceErrorCode } from "@agent-tools/core/workspace";
import { HelperError } from "./helper-session.js";

const CODES: Readonly<Record<string, WorkspaceErrorCode>> = {
  ENOENT: "not_found",
  ENOTDIR: "not_a_directory",
  EEXIST: "exists",
  EISDIR: "is_a_directory",
  ENOTEMPTY: "not_empty",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  EROFS: "permission_denied",
  ELOOP: "symlink_loop",
  OUTSIDE: "out_of_bounds",
  NOTREG: "unsupported",
};

/**
 * Maps a failure of `operation` on `path` (`root`: the workspace root, for
 * the `out_of_bounds` message). `rmdir` reports a non-empty directory as
 * EEXIST on some systems: `not_empty` there.
 */
export function anchoredError(error: unknown, operation: string, path: string, root: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  if (!(error instanceof HelperError)) {
    const reason = error instanceof Error ? error.message : String(error);
    return new WorkspaceError("io", `${operation} ${path}: ${reason}`, { path, operation }, { cause: error });
  }
  let code = CODES[error.code] ?? "io";
  if (error.code === "EEXIST" && operation === "rmdir") code = "not_empty";
  if (code === "out_of_bounds") {
    return new WorkspaceError("out_of_bounds", `${operation} ${path}: its directory resolves to ${error.message}, outside the workspace root ${root}.`, {
      path,
      operation,
      canonicalPath: error.message,
    });
  }
  const reason =
    error.code === "MOVED"
      ? `${error.message} (a concurrent change kept swapping it; try again)`
      : error.code === "NOTREG"
        ? "not a regular file (a FIFO, socket or device)"
        : error.message;
  return new WorkspaceError(code, `${operation} ${path}: ${reason}`, { path, operation, platformCode: error.code }, { cause: error });
}
