/**
 * Error types of the SDK.
 *
 * - {@link SdkError} is thrown for host misuse (a programming error in the
 *   embedding application). It never reaches the model.
 * - {@link ToolError} is thrown by tools for failures the model should see.
 *   The central executor renders it into an `isError` result.
 */

/** The small, closed list of tool error codes. Tool-specific facts go in `details`. */
export const TOOL_ERROR_CODES = [
  "invalid_arguments",
  "unknown_tool",
  "permission_denied",
  "cancelled",
  "invalid_workdir",
  "invalid_path",
  "out_of_bounds",
  "not_found",
  "not_a_directory",
  "not_a_file",
  "unsupported_target",
  "requires_full_read",
  "stale_file",
  "edit_no_match",
  "edit_ambiguous",
  "edit_count_mismatch",
  "too_large",
  "not_utf8",
  "binary_file",
  "regex_invalid",
  "glob_invalid",
  "timeout",
  "limit_reached",
  "conflict",
  "unavailable",
  "io",
  "other",
] as const;

/** One of {@link TOOL_ERROR_CODES}. */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** Options of a {@link ToolError}. */
export interface ToolErrorOptions {
  /** JSON-serialisable facts for UIs and traces. */
  details?: Record<string, unknown>;
  /** Whether the model can fix the call and retry (default true). */
  recoverable?: boolean;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A tool failure, written for the model: what went wrong and what to do next.
 *
 * @example
 * throw new ToolError("not_found", "src/a.ts does not exist. Use Glob to find it.");
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  readonly code: ToolErrorCode;
  readonly details: Record<string, unknown>;
  readonly recoverable: boolean;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.recoverable = options.recoverable ?? true;
  }

  /** A plain object that survives JSON serialisation. */
  toJSON(): { name: string; code: ToolErrorCode; message: string; details: Record<string, unknown>; recoverable: boolean } {
    return { name: this.name, code: this.code, message: this.message, details: this.details, recoverable: this.recoverable };
  }
}

/** Codes of {@link SdkError}: host misuse. */
export type SdkErrorCode =
  | "invalid_options"
  | "invalid_tool_definition"
  | "duplicate_tool"
  | "invalid_tool_call"
  | "invalid_root"
  | "closed"
  | "storage"
  | "unsupported";

/**
 * The shape every SDK error that is not a {@link ToolError} shares: a
 * machine-readable `code`, JSON-serialisable `data` and a `toJSON()` that
 * keeps both. Subclasses narrow the code and data types and set `name`.
 */
export class CodedError<Code extends string, Data extends object> extends Error {
  readonly code: Code;
  readonly data: Data;

  constructor(code: Code, message: string, data: Data, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  /** A plain object that survives JSON serialisation. */
  toJSON(): { name: string; code: Code; message: string; data: Data } {
    return { name: this.name, code: this.code, message: this.message, data: this.data };
  }
}

/**
 * Thrown for host misuse: invalid options, duplicate built-in tool names, a
 * malformed tool-call envelope, use after `close()`.
 */
export class SdkError extends CodedError<SdkErrorCode, Record<string, unknown>> {
  override readonly name = "SdkError";

  constructor(code: SdkErrorCode, message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(code, message, data, options);
  }
}

/** True when `error` is an abort (DOMException AbortError or an aborted signal reason). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    ((error as { name?: unknown }).name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR")
  );
}
