/**
 * @agent-tools/mcp-server: a tool registry served to any MCP client over
 * stdio or Streamable HTTP.
 */
export { createMcpServer } from "./create-mcp-server.js";
export { McpServerError, MCP_SERVER_ERROR_CODES } from "./mcp-server-error.js";
export type { McpServerErrorCode } from "./mcp-server-error.js";
export { MAX_STDIO_MESSAGE_BYTES } from "./stdio-line-limit.js";
export { DEFAULT_MAX_HTTP_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./http-listen-options.js";
export type { McpServerOptions, McpHttpListenOptions, McpHttpListener, AgentToolsMcpServer } from "./mcp-server-options.js";
