/** Types of what an MCP server sends, shared by the connection and the files it uses (a leaf: it imports only core's contracts). */
import type { McpManifestTool } from "@agent-tools/core/mcp";

/** A tool as the server lists it: the shape a cached manifest keeps (`taskSupport` from `execution.taskSupport`, see tasks/task-support.ts). */
export type McpRemoteTool = McpManifestTool;

/** Lifecycle of an McpServerConnection. */
export type McpConnectionState = "idle" | "connecting" | "connected" | "disconnected" | "failed" | "closed";

/** Progress the server reported for a running call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}
