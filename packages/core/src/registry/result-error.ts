import { TOOL_ERROR_CODES, type ToolError, type ToolErrorCode } from "../errors.js";
import { shortenForMessage } from "../quote.js";
import { toolResultText } from "../tool-result-text.js";
import type { ToolContent, ToolResult, ToolResultError } from "../types.js";

/** Longest message an error derived from a returned error result keeps (the content itself is capped separately). */
const DERIVED_MESSAGE_CHARS = 2_000;

/**
 * Builds an error result with the message as its only content and an
 * `error` of `code` (default `other`) and `recoverable` (default true).
 *
 * @example
 * return errorResult("The queue is full; try again later.", { queued: 50 }, { code: "limit_reached" });
 */
export function errorResult(
  message: string,
  details: Record<string, unknown> = {},
  error: { code?: ToolErrorCode; recoverable?: boolean } = {},
): ToolResult<Record<string, unknown>> {
  return {
    content: [{ type: "text", text: message }],
    details,
    isError: true,
    error: { code: error.code ?? "other", message, recoverable: error.recoverable ?? true },
  };
}

/** The `error` of a result built from a thrown {@link ToolError}: its code, message and recoverable, as thrown. */
export function toolErrorOf(error: ToolError): ToolResultError {
  return { code: error.code, message: error.message, recoverable: error.recoverable };
}

/** True for one of the closed list of tool error codes. */
export function isToolErrorCode(value: unknown): value is ToolErrorCode {
  return typeof value === "string" && (TOOL_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The `error` of an error result a tool returned instead of throwing: its
 * own `error` when that is well formed, else `details.code` when it is a
 * tool error code (else `other`), `details.recoverable` when it is a
 * boolean (else true) and the content's text.
 */
export function returnedErrorOf(given: unknown, details: unknown, content: ToolContent[]): ToolResultError {
  if (given !== null && typeof given === "object") {
    const { code, message, recoverable } = given as Record<string, unknown>;
    if (isToolErrorCode(code) && typeof message === "string" && typeof recoverable === "boolean") return { code, message, recoverable };
  }
  const facts = details !== null && typeof details === "object" && !Array.isArray(details) ? (details as Record<string, unknown>) : {};
  return {
    code: isToolErrorCode(facts.code) ? facts.code : "other",
    message: shortenForMessage(toolResultText({ content }), DERIVED_MESSAGE_CHARS),
    recoverable: typeof facts.recoverable === "boolean" ? facts.recoverable : true,
  };
}
