import type { ToolResult, ToolResultError } from "@agent-tools/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * The `_meta` key of an error result's code and recoverability
 * (`{ code, recoverable }` of the result's `error`; the message is the text).
 */
export const MCP_ERROR_META_KEY = "agent-tools/error";

/**
 * A registry result as an MCP `tools/call` result: text and image blocks,
 * `isError`, `structuredContent` from `details` when that is a non-empty
 * plain JSON object (see {@link toStructuredContent}), and for an error
 * its code and recoverability under `_meta["agent-tools/error"]`.
 *
 * @example
 * const answer = toMcpCallResult(await registry.executeToolCall(call));
 */
export function toMcpCallResult(result: ToolResult): CallToolResult {
  const content: CallToolResult["content"] = result.content.map((block) =>
    block.type === "image" ? { type: "image", data: block.data, mimeType: block.mimeType } : { type: "text", text: block.text },
  );
  const structuredContent = toStructuredContent(result.details);
  return {
    content,
    isError: result.isError,
    ...(structuredContent ? { structuredContent } : {}),
    ...(result.isError && result.error ? errorMeta(result.error) : {}),
  };
}

/** An `isError` result with one text block, for refusals the server itself answers, with their code and recoverability. */
export function mcpErrorResult(text: string, error: Pick<ToolResultError, "code" | "recoverable">): CallToolResult {
  return { content: [{ type: "text", text }], isError: true, ...errorMeta(error) };
}

function errorMeta(error: Pick<ToolResultError, "code" | "recoverable">): Pick<CallToolResult, "_meta"> {
  return { _meta: { [MCP_ERROR_META_KEY]: { code: error.code, recoverable: error.recoverable } } };
}

/**
 * `details` as MCP `structuredContent`, or undefined: only a non-empty plain
 * object whose every value survives a JSON round trip unchanged (strings,
 * finite numbers, booleans, null, arrays and plain objects; undefined
 * members are dropped as JSON drops them) qualifies. Anything else (a class
 * instance, a Map, a Date, a bigint, a cycle) is left out rather than sent
 * in a lossy form.
 *
 * @example
 * toStructuredContent({ path: "a.md", lines: 3 }); // { path: "a.md", lines: 3 }
 * toStructuredContent(new Map()); // undefined
 */
export function toStructuredContent(details: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(details) || !isJsonSafe(details, new Set())) return undefined;
  const copy = JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
  return Object.keys(copy).length > 0 ? copy : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isJsonSafe(value: unknown, path: Set<object>): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object") return false;
  if (path.has(value)) return false;
  if (!Array.isArray(value) && !isPlainObject(value)) return false;
  path.add(value);
  try {
    if (Array.isArray(value)) return value.every((item) => item !== undefined && isJsonSafe(item, path));
    return Object.values(value).every((member) => member === undefined || isJsonSafe(member, path));
  } finally {
    path.delete(value);
  }
}
