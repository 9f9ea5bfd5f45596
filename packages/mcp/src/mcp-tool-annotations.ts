import type { ToolAnnotations } from "@agent-tools/core";
import type { McpRemoteTool } from "./mcp-remote-types.js";

/**
 * The annotations of an MCP server's tool, from the server's own hints where
 * they only warn: `destructiveHint: true` is taken. A server is not trusted
 * to make its tool look safer, so the tool is never read-only (approval asks
 * about it like any other state-changing tool; plan mode does not list it,
 * whatever `readOnlyHint` says), never idempotent and always open-world
 * (it runs outside the workspace, in another process or on another host).
 *
 * @example
 * mcpToolAnnotations({ name: "drop_table", annotations: { destructiveHint: true } });
 * // { readOnly: false, listedInPlanMode: false, openWorld: true, destructive: true }
 */
export function mcpToolAnnotations(remote: Pick<McpRemoteTool, "annotations">): ToolAnnotations {
  const hints = remote.annotations;
  const destructive = hints !== null && typeof hints === "object" && hints.destructiveHint === true;
  return { readOnly: false, listedInPlanMode: false, openWorld: true, ...(destructive ? { destructive: true } : {}) };
}
