/**
 * What a host plugs into the MCP client's connections: client features
 * (elicitation, sampling, roots: capabilities plus request handlers) and
 * OAuth for HTTP and SSE servers. The runtime calls these hooks for every
 * connection it opens; the implementations live in their own modules.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { UrlElicitationBroker } from "./client-features/url-elicitation.js";
import type { McpServerConfig } from "./settings.js";

/** Client features of every connection: what the client declares and the handlers behind it. */
export interface McpClientFeatures {
  /** Capabilities declared in `initialize` (only those the host backs with a callback). */
  capabilities(config: McpServerConfig): ClientCapabilities;
  /** Registers request and notification handlers on a new client, before it connects. */
  install(client: Client, config: McpServerConfig): void;
  /** URL-mode elicitation, when the host gave `onUrlElicitation`: a tool call refused with -32042 asks through it and is retried once. */
  urlElicitation?: UrlElicitationBroker;
}

/** The part of a client transport that finishes an OAuth authorization (`StreamableHTTPClientTransport`, `SSEClientTransport`). */
export interface McpAuthTransport {
  /** Exchanges the authorization code for tokens through the transport's provider. */
  finishAuth?(authorizationCode: string): Promise<void>;
}

/** OAuth of HTTP and SSE servers: the provider a connection's transport authenticates with. */
export interface McpAuthProviderSource {
  /** The provider for this server, or undefined when it needs none (stdio, static headers only). */
  providerFor(config: McpServerConfig): OAuthClientProvider | undefined;
  /**
   * Called after a connect failed with the SDK's `UnauthorizedError`: runs
   * the host's interactive step for the authorization the provider was sent
   * to, then exchanges the code (through `transport.finishAuth` when the
   * transport has it). Resolves true when the connect should be retried,
   * false when no authorization was pending (the error stands).
   */
  completeAuthorization?(config: McpServerConfig, transport: McpAuthTransport | undefined, signal: AbortSignal): Promise<boolean>;
  /**
   * Called when a step-up to more scopes failed because the SDK refreshed
   * the token (a refresh never widens scopes): the next authorization of
   * this server asks the user instead of refreshing. Resolves true when the
   * operation should be retried on a new connection.
   */
  prepareStepUp?(config: McpServerConfig): Promise<boolean>;
}
