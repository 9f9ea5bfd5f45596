/**
 * OAuth for HTTP and SSE MCP servers: the host's options and the provider
 * source the runtime's connections use.
 */
import type { McpAuthProviderSource } from "./client-host-options.js";
import { type McpOAuthControl, type McpOAuthOptions, createMcpOAuthControl } from "./oauth/mcp-oauth-source.js";

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

const controls = new WeakSet<McpAuthProviderSource>();

/**
 * The OAuth provider source of a runtime. Always created: without host
 * options it serves only servers whose settings carry `auth`.
 *
 * @example
 * const runtime = new McpRuntime({ auth: createMcpAuthSource({ oauth: { onAuthorization } }) });
 */
export function createMcpAuthSource(options: McpOAuthHostOptions): McpOAuthControl {
  const control = createMcpOAuthControl(options.oauth);
  controls.add(control);
  return control;
}

/** The OAuth control behind a runtime's auth source, when {@link createMcpAuthSource} made it. */
export function mcpOAuthControlOf(source: McpAuthProviderSource | undefined): McpOAuthControl | undefined {
  return source !== undefined && controls.has(source) ? (source as McpOAuthControl) : undefined;
}
