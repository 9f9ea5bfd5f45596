/**
 * @agent-tools/mcp-server: a tool registry served to any MCP client over
 * stdio or Streamable HTTP.
 */
export { createMcpServer } from "./create-mcp-server.js";
export { McpServerError } from "./mcp-server-error.js";
export type { McpServerErrorCode } from "./mcp-server-error.js";
export type { McpServerOptions, McpHttpListenOptions, McpHttpListener, AgentToolsMcpServer } from "./mcp-server-options.js";
