import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { ToolError } from "@agent-tools/core";

/**
 * The MCP SDK's limit for one JSON-RPC message read from a stdio server:
 * 10 MiB (10 485 760 bytes) in SDK 1.32. The Streamable HTTP and SSE client
 * transports have no such limit (the registry's output cap still applies).
 */
export const MCP_STDIO_MAX_MESSAGE_BYTES: number = STDIO_DEFAULT_MAX_BUFFER_SIZE;

const READ_BUFFER_OVERFLOW = /ReadBuffer exceeded maximum size of (\d+) bytes/;

/**
 * The byte limit named by the SDK's stdio overflow error, else undefined.
 * The SDK reports an oversized message only this way: its `ReadBuffer`
 * throws a plain `Error("ReadBuffer exceeded maximum size of N bytes")` to
 * the client's `onerror`, closes the transport, and every pending request
 * then rejects with `McpError(ConnectionClosed, "Connection closed")`.
 */
export function readBufferOverflowLimit(error: unknown): number | undefined {
  const match = error instanceof Error ? READ_BUFFER_OVERFLOW.exec(error.message) : null;
  return match ? Number(match[1]) : undefined;
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB (${bytes} bytes)` : `${bytes} bytes`;
}

/**
 * The error a call gets when its result was larger than the stdio message
 * limit: what happened, that the connection was reset, and how to ask for
 * less. Recoverable: the next call reconnects.
 */
export function resultTooLargeError(serverId: string, toolName: string, limitBytes: number): ToolError {
  return new ToolError(
    "too_large",
    `MCP server ${serverId}: the result of ${toolName} was larger than ${formatBytes(limitBytes)}, the most one MCP message over stdio may carry, so it was discarded and the connection was reset (the server restarts on the next call, losing any state it kept in memory). Call ${toolName} again asking for less output: use its paging or limit arguments if it has any (page, limit, offset, max_results, a line range), or a narrower query, and fetch the rest in further calls.`,
    { details: { serverId, tool: toolName, limitBytes, transport: "stdio" } },
  );
}

/** The load error when the `tools/list` answer itself was over the limit. */
export function toolListTooLargeMessage(serverId: string, limitBytes: number): string {
  return `MCP server ${serverId}: its tools/list answer was larger than ${formatBytes(limitBytes)}, the most one MCP message over stdio may carry, so the connection was reset. The server lists too many or too large tools; ask the user to reduce them (or use a server option that lists fewer).`;
}
