export type { McpServerOptions, McpHttpListenOptions, McpHttpListener, AgentToolsMcpServer } from "./mcp-server-options.js";
