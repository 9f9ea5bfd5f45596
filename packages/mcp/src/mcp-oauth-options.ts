/**
 * OAuth for HTTP and SSE MCP servers: the host's options (the runtime's
 * provider source is `createMcpOAuthControl`).
 */
import type { McpOAuthOptions } from "./oauth/mcp-oauth-source.js";

export type { McpOAuthOptions } from "./oauth/mcp-oauth-source.js";

/** The host's OAuth options (part of `createMcpToolBundles` options). */
export interface McpOAuthHostOptions {
  /**
   * OAuth 2.1 for HTTP and SSE servers: the sign-in callback, the credential
   * store, its encryption key, the redirect URL and client metadata. Absent:
   * only servers whose settings name `auth` (client credentials,
   * pre-registered clients) use OAuth.
   */
  oauth?: McpOAuthOptions;
}
