/** Types of what an MCP server sends, shared by the connection and the files it uses (a leaf: it imports nothing). */

/** A tool as the server lists it. */
export interface McpRemoteTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  annotations?: Record<string, unknown>;
  /** `execution.taskSupport` of the listing, when the server named it (see tasks/task-support.ts). */
  taskSupport?: "required" | "optional" | "forbidden";
}

/** Lifecycle of an McpServerConnection. */
export type McpConnectionState = "idle" | "connecting" | "connected" | "disconnected" | "failed" | "closed";

/** Progress the server reported for a running call. */
export interface McpProgress {
  progress: number;
  total?: number;
  message?: string;
}
