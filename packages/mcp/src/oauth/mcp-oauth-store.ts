/**
 * The storage port of MCP OAuth credentials: one opaque record per server id
 * and server URL (client registration, tokens), written by the provider and
 * never by the MCP settings. Defined with the MCP contracts in `@agent-tools/core/mcp`.
 */
export type { McpOAuthStore, McpOAuthStoreKey } from "@agent-tools/core/mcp";
