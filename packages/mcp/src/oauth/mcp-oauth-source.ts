import { ToolError, raceWithAbort } from "@agent-tools/core";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import type { McpOAuthOptions } from "@agent-tools/core/mcp";
import type { McpAuthProviderSource, McpAuthTransport } from "../client-host-options.js";
import type { McpServerConfig } from "../settings.js";
import { readAuthorizationCode } from "./authorization-callback.js";
import { InMemoryMcpOAuthStore } from "./in-memory-mcp-oauth-store.js";
import { parseEncryptionKey } from "./mcp-oauth-credentials.js";
import { type McpOAuthCredentialSummary, type McpOAuthPhase, McpOAuthProvider } from "./mcp-oauth-provider.js";
import type { McpOAuthStore } from "./mcp-oauth-store.js";

/** Where the authorization server sends the user back when the host names no redirect URL. */
export const DEFAULT_MCP_OAUTH_REDIRECT_URL = "http://127.0.0.1:33418/oauth/callback";

export type { McpOAuthOptions } from "@agent-tools/core/mcp";

/** A server's OAuth state as McpManager shows it: no secret, ever. */
export interface McpOAuthStatus extends McpOAuthCredentialSummary {
  /** The step an unfinished attempt stopped at, when the last attempt did not end with tokens. */
  pendingPhase?: McpOAuthPhase;
}

/**
 * The runtime's OAuth: the SDK providers of HTTP and SSE servers plus what
 * McpManager needs (status, login, logout).
 */
export interface McpOAuthControl extends McpAuthProviderSource {
  /** The provider of `config`, or undefined for stdio servers and, without host OAuth options, for servers with no `auth` settings. */
  providerFor(config: McpServerConfig): McpOAuthProvider | undefined;
  /** Runs the host's interactive step for a pending authorization and exchanges the code; false when none was pending. */
  completeAuthorization(config: McpServerConfig, transport: McpAuthTransport | undefined, signal: AbortSignal): Promise<boolean>;
  /** After a refused step-up: the next authorization asks the user (false without a sign-in callback). */
  prepareStepUp(config: McpServerConfig): Promise<boolean>;
  /** The server's stored credentials, summarised; undefined when it does not use OAuth here. */
  status(config: McpServerConfig): Promise<McpOAuthStatus | undefined>;
  /** Signs in now: drops the stored tokens, then discovery, registration, authorization (through the host) and token. */
  login(config: McpServerConfig, signal: AbortSignal): Promise<McpOAuthStatus>;
  /** Deletes the server's stored tokens and registration (every URL it had). */
  logout(config: McpServerConfig): Promise<void>;
}

/**
 * The OAuth control of one runtime. Providers are kept per server id, URL
 * and auth settings, so a flow's verifier and discovery survive from the
 * failed connect to the retry.
 *
 * @example
 * const oauth = createMcpOAuthControl({ onAuthorization: async ({ authorizationUrl }) => ({ callbackUrl: await waitForRedirect(authorizationUrl) }) });
 */
export function createMcpOAuthControl(options: McpOAuthOptions | undefined): McpOAuthControl {
  const encryptionKey = options?.encryptionKey === undefined ? undefined : parseEncryptionKey(options.encryptionKey);
  const redirectUrl = options?.redirectUrl ?? DEFAULT_MCP_OAUTH_REDIRECT_URL;
  let opening: Promise<McpOAuthStore> | undefined;
  const store = (): Promise<McpOAuthStore> => {
    const given = options?.store;
    opening ??= (typeof given === "function" ? given() : Promise.resolve(given ?? new InMemoryMcpOAuthStore())).catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const providers = new Map<string, McpOAuthProvider>();

  function providerFor(config: McpServerConfig): McpOAuthProvider | undefined {
    if (config.transport !== "http" && config.transport !== "sse") return undefined;
    if (options === undefined && config.auth === undefined) return undefined;
    const key = JSON.stringify([config.id, config.url, config.auth ?? null]);
    let provider = providers.get(key);
    if (provider === undefined) {
      provider = new McpOAuthProvider({
        serverId: config.id,
        serverUrl: config.url,
        auth: config.auth,
        store,
        encryptionKey,
        redirectUrl,
        clientMetadata: options?.clientMetadata,
        clientMetadataUrl: options?.clientMetadataUrl,
      });
      providers.set(key, provider);
    }
    return provider;
  }

  function required(config: McpServerConfig): McpOAuthProvider {
    const provider = providerFor(config);
    if (provider !== undefined) return provider;
    throw new ToolError(
      "invalid_arguments",
      `MCP server ${config.id} does not use OAuth here (only http and sse servers do, when the host enables OAuth or the server has auth settings).`,
      {
        details: { serverId: config.id },
      },
    );
  }

  async function completeAuthorization(config: McpServerConfig, transport: McpAuthTransport | undefined, signal: AbortSignal): Promise<boolean> {
    const provider = providerFor(config);
    const pending = provider?.takePendingAuthorization();
    if (provider === undefined || pending === undefined) return false;
    const onAuthorization = options?.onAuthorization;
    if (onAuthorization === undefined) {
      throw new ToolError(
        "unavailable",
        `MCP server ${config.id} needs an OAuth sign-in and this host has no sign-in callback (oauth.onAuthorization). Configure one in the host, or give the server auth settings with grant client_credentials.`,
        { details: { serverId: config.id, phase: "authorization" }, recoverable: false },
      );
    }
    const answer = await raceWithAbort(
      onAuthorization({ serverId: config.id, authorizationUrl: pending.href, signal }),
      signal,
      () => new ToolError("cancelled", `The OAuth sign-in for MCP server ${config.id} was cancelled.`),
    );
    const code = readAuthorizationCode(config.id, answer, provider.expectedState);
    provider.phase = "token";
    if (transport?.finishAuth) {
      await transport.finishAuth(code);
      return true;
    }
    const result = await auth(provider, { serverUrl: config.url, authorizationCode: code });
    if (result !== "AUTHORIZED")
      throw new ToolError("unavailable", `MCP server ${config.id}: the authorization code was not accepted; sign in again with McpManager action=login.`);
    return true;
  }

  async function status(config: McpServerConfig): Promise<McpOAuthStatus | undefined> {
    const provider = providerFor(config);
    if (provider === undefined) return undefined;
    // A store that cannot be read still lets McpManager name the step that failed.
    const summary = await provider.summary().catch((): McpOAuthCredentialSummary => ({ authorized: false, refreshable: false, registered: false }));
    const pendingPhase = provider.unfinishedPhase();
    return pendingPhase === undefined ? summary : { ...summary, pendingPhase };
  }

  return {
    providerFor,
    completeAuthorization,
    async prepareStepUp(config) {
      const provider = providerFor(config);
      if (provider === undefined || options?.onAuthorization === undefined) return false;
      provider.skipRefreshUntilAuthorized();
      return true;
    },
    status,
    async login(config, signal) {
      const provider = required(config);
      await provider.invalidateCredentials("tokens");
      const result = await auth(provider, { serverUrl: config.url });
      if (result === "REDIRECT") await completeAuthorization(config, undefined, signal);
      return (await status(config)) as McpOAuthStatus;
    },
    async logout(config) {
      for (const provider of providers.values()) if (provider.key.serverId === config.id) provider.forget();
      await (await store()).delete({ serverId: config.id });
    },
  };
}
