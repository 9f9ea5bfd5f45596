/**
 * A call to a tool the server no longer has: how it is recognised and what
 * the model is told. A guess from the failure text is only a trigger: the
 * caller re-lists the server's tools and reports the tool gone only when
 * the new listing no longer has it.
 */
import { ToolError } from "@agent-tools/core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

const GONE_TEXT = /unknown tool|tool\b.{0,200}\b(?:not found|does not exist)|no such tool|method not found|not a known tool/i;

/** True when `text` reads like "the tool does not exist" (the MCP SDK's servers say `Tool <name> not found`). */
export function readsLikeToolGone(text: string): boolean {
  return GONE_TEXT.test(text);
}

/** True when a failed call (thrown or an `isError` result) may mean the tool is gone. */
export function mayMeanToolGone(outcome: { error: unknown } | { result: CallToolResult }): boolean {
  if ("error" in outcome) {
    const error = outcome.error;
    if (error instanceof McpError && (error.code === ErrorCode.MethodNotFound || error.code === ErrorCode.InvalidParams))
      return readsLikeToolGone(error.message) || error.code === ErrorCode.MethodNotFound;
    return error instanceof Error && readsLikeToolGone(error.message);
  }
  const result = outcome.result;
  if (result.isError !== true) return false;
  const text = (result.content ?? [])
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("\n")
    .slice(0, 2_000);
  return readsLikeToolGone(text);
}

/** The `not_found` a model gets for a tool its server no longer lists. */
export function toolGoneError(toolName: string, remoteName: string, serverId: string): ToolError {
  return new ToolError(
    "not_found",
    `The MCP tool ${toolName} is gone: server ${serverId} no longer lists ${remoteName} (its tool list was refreshed). ` +
      `Use ToolSearch to find another tool, or McpManager action=tools server_id=${serverId} to see what the server offers now.`,
    { details: { serverId, tool: remoteName } },
  );
}
