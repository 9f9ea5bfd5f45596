/**
 * Error types of the SDK.
 *
 * - {@link SdkError} is thrown for host misuse (a programming error in the
 *   embedding application). It never reaches the model.
 * - {@link ToolError} is thrown by tools for failures the model should see.
 *   The central executor renders it into an `isError` result.
 *
 * Both extend {@link CodedError} (`code`, `details`, `toJSON()`), as do the
 * port errors (GitClientError, ModelClientError).
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
  "outcome_unknown",
  "unavailable",
  "io",
  "other",
] as const;

/** One of {@link TOOL_ERROR_CODES}. */
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/**
 * The brand every {@link CodedError} carries (a non-enumerable property
 * holding the names of its class chain, e.g. `["ToolError", "CodedError"]`).
 * A registered symbol, so every copy of this package shares it and
 * `instanceof` works across copies.
 */
const CODED_ERROR_BRAND: unique symbol = Symbol.for("agent-tools.coded-error") as never;

/** The class names from `errorClass` up to (not including) `Error`: the brand's value. */
function classFamily(errorClass: abstract new (...args: never[]) => unknown): readonly string[] {
  const names: string[] = [];
  for (let current: unknown = errorClass; typeof current === "function" && current !== Error && current !== Function.prototype; ) {
    names.push(current.name);
    current = Object.getPrototypeOf(current);
  }
  return Object.freeze(names);
}

/** The class names a branded error carries, or undefined for anything else. */
function brandedFamily(value: unknown): readonly string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const family: unknown = (value as { [CODED_ERROR_BRAND]?: unknown })[CODED_ERROR_BRAND];
  return Array.isArray(family) && family.every((name) => typeof name === "string") ? family : undefined;
}

/** The ordinary prototype check, else the brand of another copy naming `errorClass` in its class chain. */
function isInstanceOrBranded(errorClass: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(errorClass, value)) return true;
  return brandedFamily(value)?.includes(errorClass.name) === true;
}

/**
 * What `toJSON()` of every SDK error returns: the same four keys for
 * {@link SdkError}, {@link ToolError} (which adds `recoverable`) and the
 * port errors built on {@link CodedError}.
 */
export interface CodedErrorJSON<Code extends string = string, Details extends object = Record<string, unknown>> {
  /** The class name, e.g. `"ToolError"`. */
  name: string;
  /** The machine-readable code. */
  code: Code;
  /** The human (or model) readable message. */
  message: string;
  /** JSON-serialisable facts. */
  details: Details;
}

/**
 * The base of every SDK error: a machine-readable `code`, JSON-serialisable
 * `details` and a `toJSON()` that keeps both, so an error survives a wire
 * (as isomorphic-git's errors do). Subclasses narrow the code and details
 * types and set `name`.
 *
 * @example
 * try {
 *   await registry.execute(call);
 * } catch (error) {
 *   if (error instanceof CodedError) console.log(JSON.stringify(error)); // {"name":..,"code":..,"message":..,"details":{..}}
 * }
 */
export class CodedError<Code extends string, Details extends object> extends Error {
  override readonly name: string = "CodedError";
  readonly code: Code;
  readonly details: Details;

  /**
   * `instanceof` that holds across two copies of `@agent-tools/core` (two
   * versions in one `node_modules`, a bundled and an installed one): true
   * for an instance of this very class, or for any error carrying the
   * {@link CODED_ERROR_BRAND} whose class chain has this class's name (so
   * `x instanceof ToolError` is true for another copy's ToolError, and
   * `instanceof CodedError` for every branded error). Inherited by every
   * subclass, including the port errors of other packages.
   */
  static [Symbol.hasInstance]<T>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of instanceof (ToolError, SdkError, a port error), not CodedError.
    return isInstanceOrBranded(this, value);
  }

  constructor(code: Code, message: string, details: Details, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = details;
    Object.defineProperty(this, CODED_ERROR_BRAND, { value: classFamily(new.target), enumerable: false });
  }

  /**
   * The same object as {@link CodedError.details}.
   *
   * @deprecated Read `details`; `data` stays as an alias for one major version.
   */
  get data(): Details {
    return this.details;
  }

  /** A plain object that survives JSON serialisation. */
  toJSON(): CodedErrorJSON<Code, Details> {
    return { name: this.name, code: this.code, message: this.message, details: this.details };
  }
}

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
 * Tool-specific facts go in `details`, not in new codes.
 *
 * @example
 * throw new ToolError("not_found", "src/a.ts does not exist. Use Glob to find it.", { details: { path: "src/a.ts" } });
 */
export class ToolError extends CodedError<ToolErrorCode, Record<string, unknown>> {
  override readonly name = "ToolError";
  /** Whether the model can fix the call and retry. */
  readonly recoverable: boolean;

  constructor(code: ToolErrorCode, message: string, options: ToolErrorOptions = {}) {
    super(code, message, options.details ?? {}, { cause: options.cause });
    this.recoverable = options.recoverable ?? true;
  }

  /** {@link CodedErrorJSON} plus `recoverable`. */
  override toJSON(): CodedErrorJSON<ToolErrorCode, Record<string, unknown>> & { recoverable: boolean } {
    return { ...super.toJSON(), recoverable: this.recoverable };
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
 * Thrown for host misuse: invalid options, duplicate built-in tool names, a
 * malformed tool-call envelope, use after `close()`.
 */
export class SdkError extends CodedError<SdkErrorCode, Record<string, unknown>> {
  override readonly name = "SdkError";

  constructor(code: SdkErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}

/** True when `error` is an abort (DOMException AbortError or an aborted signal reason). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && ((error as { name?: unknown }).name === "AbortError" || (error as { code?: unknown }).code === "ABORT_ERR")
  );
}
