/**
 * OAuth for HTTP and SSE MCP servers: the host's options and the provider
 * source the runtime's connections use.
 */
import type { McpAuthProviderSource } from "./client-host-options.js";

/** The host's OAuth options (part of `createMcpToolBundles` options). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in as OAuth lands.
export interface McpOAuthHostOptions {}

/** The OAuth provider source of a runtime, or undefined when the host configured none. */
export function createMcpAuthSource(_options: McpOAuthHostOptions): McpAuthProviderSource | undefined {
  return undefined;
}
