/**
 * How a card shows a result's text: JSON pretty-printed (MCP tools often
 * answer with it), anything else as it is.
 */

/** The tools whose names mark them as MCP tools (`mcp_<server>_<tool>`). */
export function isMcpTool(toolName: string): boolean {
  return toolName.startsWith("mcp_");
}

/** A result text for display: `json` when the text (or the MCP structured content) is JSON. */
export interface ResultDisplay {
  format: "json" | "text";
  text: string;
}

/**
 * Formats a result text; an MCP result whose details carry `mcp.structuredContent`
 * shows that as JSON when the text is not JSON itself.
 *
 * @example
 * formatResultText('{"a":1}', undefined); // { format: "json", text: '{\n  "a": 1\n}' }
 */
export function formatResultText(text: string, details: unknown): ResultDisplay {
  const parsed = parseJson(text);
  if (parsed !== undefined) return { format: "json", text: JSON.stringify(parsed, null, 2) };
  const structured = structuredContent(details);
  if (structured !== undefined && text.trim() === "") return { format: "json", text: JSON.stringify(structured, null, 2) };
  return { format: "text", text };
}

/** The `mcp.structuredContent` of an MCP tool's details, if any. */
export function structuredContent(details: unknown): unknown {
  if (details === null || typeof details !== "object") return undefined;
  const mcp = (details as { mcp?: unknown }).mcp;
  if (mcp === null || typeof mcp !== "object") return undefined;
  return (mcp as { structuredContent?: unknown }).structuredContent;
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith("{") || trimmed.startsWith("["))) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}
