/**
 * OAuth for HTTP and SSE MCP servers: the host's options (the runtime's
 * provider source is `createMcpOAuthControl`).
 */
import type { McpHostOptions } from "@agent-tools/core/mcp";

export type { McpOAuthOptions } from "@agent-tools/core/mcp";

/** The host's OAuth options (part of `createMcpToolBundles` options; documented on `McpHostOptions`). */
export type McpOAuthHostOptions = Pick<McpHostOptions, "oauth">;
