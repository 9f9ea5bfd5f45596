import type { ToolContent, ToolOutput } from "@agent-tools/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** What a dynamic MCP tool puts in `details`. */
export interface McpToolCallDetails {
  serverId: string;
  serverLabel: string;
  /** The server's own tool name. */
  tool: string;
  mcp: {
    /** Content block types the server returned, in order. */
    contentTypes: string[];
    structuredContent?: unknown;
    isError: boolean;
  };
}

function describeBytes(base64: string): string {
  return `${Math.floor((base64.length * 3) / 4)} bytes`;
}

/** Maps one MCP content block to what the model sees. */
export function mapMcpContentBlock(block: CallToolResult["content"][number]): ToolContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType}, ${describeBytes(block.data)}; not shown]` };
    case "resource": {
      const resource = block.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
      if (typeof resource.text === "string")
        return { type: "text", text: `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}]\n${resource.text}` };
      return {
        type: "text",
        text: `[resource ${resource.uri}${resource.mimeType ? ` (${resource.mimeType})` : ""}, binary ${describeBytes(resource.blob ?? "")}; not shown]`,
      };
    }
    case "resource_link":
      return {
        type: "text",
        text: `[resource link ${block.name ?? ""} ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ""}]${block.description ? ` ${block.description}` : ""}`.replace(
          "  ",
          " ",
        ),
      };
    default:
      return { type: "text", text: JSON.stringify(block) };
  }
}

/**
 * Maps a `tools/call` result into a tool output: text, image, resource and
 * resource-link blocks; structured content as JSON text when the server sent
 * no content; the server's `isError` kept.
 */
export function mapMcpCallResult(result: CallToolResult, meta: { serverId: string; serverLabel: string; tool: string }): ToolOutput<McpToolCallDetails> {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const content: ToolContent[] = blocks.map(mapMcpContentBlock);
  const structured = result.structuredContent;
  if (content.length === 0 && structured !== undefined) content.push({ type: "text", text: JSON.stringify(structured, null, 2) });
  if (content.length === 0)
    content.push({ type: "text", text: result.isError ? "(the MCP tool failed without a message)" : "(the MCP tool returned no content)" });
  const details: McpToolCallDetails = {
    ...meta,
    mcp: {
      contentTypes: blocks.map((block) => block.type),
      isError: result.isError === true,
      ...(structured !== undefined ? { structuredContent: structured } : {}),
    },
  };
  return { content, details, isError: result.isError === true };
}
