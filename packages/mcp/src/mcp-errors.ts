/** The load errors of MCP servers: defined with the MCP contracts in `@agent-tools/core/mcp` (one class, so `instanceof` holds across packages). */
export { McpLoadError, McpConfigError } from "@agent-tools/core/mcp";
export type { McpLoadFailure, McpLoadReport, McpLoadErrorDetails, McpConfigProblem } from "@agent-tools/core/mcp";
