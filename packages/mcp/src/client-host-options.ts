/**
 * What a host plugs into the MCP client's connections: client features
 * (elicitation, sampling, roots: capabilities plus request handlers) and
 * OAuth for HTTP and SSE servers. The runtime calls these hooks for every
 * connection it opens; the implementations live in their own modules.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "./settings.js";

/** Client features of every connection: what the client declares and the handlers behind it. */
export interface McpClientFeatures {
  /** Capabilities declared in `initialize` (only those the host backs with a callback). */
  capabilities(config: McpServerConfig): ClientCapabilities;
  /** Registers request and notification handlers on a new client, before it connects. */
  install(client: Client, config: McpServerConfig): void;
}

/** OAuth of HTTP and SSE servers: the provider a connection's transport authenticates with. */
export interface McpAuthProviderSource {
  /** The provider for this server, or undefined when it needs none (stdio, static headers only). */
  providerFor(config: McpServerConfig): OAuthClientProvider | undefined;
}
