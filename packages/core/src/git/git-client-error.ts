import { CodedError } from "../errors.js";

/** What kind of failure a {@link GitClientError} reports. */
export type GitClientErrorCode =
  /** The directory is not inside a git work tree. */
  | "not_a_repository"
  /** A patch did not apply; nothing was written. */
  | "patch_failed"
  /** A 3-way apply left conflict markers in `data.paths`. */
  | "conflict"
  /** `commit` found nothing to commit. */
  | "nothing_to_commit"
  /** A bounded read stopped: what git would print (or read) is larger than the limit the caller set. */
  | "too_large"
  /** A git command or library call failed otherwise (bad ref, existing branch, locked worktree, ...). */
  | "command_failed";

/** Facts attached to a {@link GitClientError}. */
export interface GitClientErrorData {
  /** Repository-relative paths involved (failed or conflicting files). */
  paths?: string[];
  /** The git command line, for the CLI adapter. */
  command?: string;
  /** The exit code, for the CLI adapter. */
  exitCode?: number | null;
  /** What git printed on stderr (at most 4 000 characters). */
  stderr?: string;
}

/**
 * A git operation failed. `code` says how; `data.paths` names the files.
 *
 * @example
 * try {
 *   await git.apply(repo, patch, { threeWay: true });
 * } catch (error) {
 *   if (error instanceof GitClientError && error.code === "conflict") console.log(error.data.paths);
 * }
 */
export class GitClientError extends CodedError<GitClientErrorCode, GitClientErrorData> {
  override readonly name = "GitClientError";

  constructor(code: GitClientErrorCode, message: string, data: GitClientErrorData = {}, options?: { cause?: unknown }) {
    super(code, message, data, options);
  }
}
