/**
 * @agent-tools/mcp: MCP servers as tools, McpManager, applyMcpOps, ToolSearch.
 *
 * @packageDocumentation
 */
export {};
