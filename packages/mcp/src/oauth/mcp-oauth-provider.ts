import { randomBytes } from "node:crypto";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { type McpOAuthCredentials, openMcpOAuthCredentials, sealMcpOAuthCredentials } from "./mcp-oauth-credentials.js";
import type { McpOAuthStore, McpOAuthStoreKey } from "./mcp-oauth-store.js";
import type { McpServerAuthConfig } from "./mcp-server-auth-config.js";

/** The steps of an OAuth attempt, as McpManager reports them. */
export type McpOAuthPhase = "discovery" | "registration" | "authorization" | "token";

/** What {@link McpOAuthProvider} needs. */
export interface McpOAuthProviderOptions {
  serverId: string;
  serverUrl: string;
  auth?: McpServerAuthConfig;
  /** The store, or a factory opened on first use (a shared database). */
  store(): Promise<McpOAuthStore>;
  /** 32 bytes: records are sealed with AES-256-GCM. */
  encryptionKey?: Buffer;
  redirectUrl: string;
  clientMetadata?: Partial<OAuthClientMetadata>;
  clientMetadataUrl?: string;
}

/** A short view of stored credentials, free of secrets. */
export interface McpOAuthCredentialSummary {
  /** An access token is stored. */
  authorized: boolean;
  /** When it expires (ms since the epoch), when the server said. */
  expiresAt?: number;
  /** The scopes the server granted, when it said. */
  scopes?: string;
  /** A refresh token is stored. */
  refreshable: boolean;
  /** A dynamic registration (or metadata document client id) is stored; false for a pre-registered client. */
  registered: boolean;
}

/**
 * The SDK's `OAuthClientProvider` for one server id and URL. Tokens and
 * dynamic registrations go to the store (sealed when a key is given); the
 * PKCE verifier, the state and the discovery result stay in memory for the
 * flow that needs them. `redirectToAuthorization` only records the URL: the
 * runtime hands it to the host's callback (see `completeAuthorization`).
 * Tracks the step an attempt is in, for McpManager's report.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly key: McpOAuthStoreKey;
  /**
   * {@link OAuthClientProvider.clientMetadataUrl}: the host's client ID metadata document, if any.
   * An optional property, not a getter returning `string | undefined`: the SDK declares it optional, and a
   * consumer compiling with `exactOptionalPropertyTypes` would otherwise see this class not implement the interface.
   */
  readonly clientMetadataUrl?: string;
  /** The step the current or last attempt reached. */
  phase: McpOAuthPhase = "discovery";
  readonly #options: McpOAuthProviderOptions;
  #loading: Promise<McpOAuthCredentials> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #verifier: string | undefined;
  #state: string | undefined;
  #pending: URL | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #attemptOpen = false;
  #skipRefresh = false;
  /** False when discovery found no authorization server metadata (the SDK then tries default endpoints). */
  #metadataFound = true;

  constructor(options: McpOAuthProviderOptions) {
    this.#options = options;
    this.key = { serverId: options.serverId, serverUrl: options.serverUrl };
    if (options.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.clientMetadataUrl;
  }

  private get machine(): boolean {
    return this.#options.auth?.grant === "client_credentials";
  }

  /** Undefined for client credentials (no user, no redirect). */
  get redirectUrl(): string | undefined {
    return this.machine ? undefined : this.#options.redirectUrl;
  }

  /** What dynamic registration sends; the host's `clientMetadata` overrides the defaults. */
  get clientMetadata(): OAuthClientMetadata {
    const auth = this.#options.auth;
    return {
      client_name: "agent-tools",
      redirect_uris: this.machine ? [] : [this.#options.redirectUrl],
      grant_types: this.machine ? ["client_credentials"] : ["authorization_code", "refresh_token"],
      response_types: this.machine ? [] : ["code"],
      token_endpoint_auth_method: auth?.tokenEndpointAuthMethod ?? (auth?.clientSecret ? "client_secret_basic" : "none"),
      ...(auth?.scope ? { scope: auth.scope } : {}),
      ...this.#options.clientMetadata,
    };
  }

  /** A fresh random `state` per authorization, checked when the host returns the redirect. */
  state(): string {
    this.phase = "authorization";
    this.#state = randomBytes(16).toString("base64url");
    return this.#state;
  }

  /** The `state` of the authorization in progress. */
  get expectedState(): string | undefined {
    return this.#state;
  }

  /** The pre-registered client from the settings, else the stored registration. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    // With a client known, what follows is a token request (or an authorization, which state() marks).
    const auth = this.#options.auth;
    if (auth?.clientId) {
      this.phase = "token";
      return {
        client_id: auth.clientId,
        ...(auth.clientSecret ? { client_secret: auth.clientSecret } : {}),
        ...(auth.tokenEndpointAuthMethod ? { token_endpoint_auth_method: auth.tokenEndpointAuthMethod } : {}),
      };
    }
    const stored = (await this.load()).clientInformation;
    if (stored !== undefined) this.phase = "token";
    else this.phase = this.#metadataFound ? "registration" : "discovery";
    return stored;
  }

  /** Stores a dynamic registration; a pre-registered client stays in the settings only. */
  async saveClientInformation(clientInformation: OAuthClientInformationMixed): Promise<void> {
    if (this.#options.auth?.clientId) return;
    await this.update((credentials) => ({ ...credentials, clientInformation }));
    this.phase = "token";
  }

  /** {@link OAuthClientProvider.tokens} */
  async tokens(): Promise<OAuthTokens | undefined> {
    // Asked before every request: a store that cannot open must not break servers that need no OAuth.
    // One that does need it fails at clientInformation() with the store's own message.
    const tokens = (await this.load().catch(() => ({}) as McpOAuthCredentials)).tokens;
    if (!this.#skipRefresh || tokens?.refresh_token === undefined) return tokens;
    // A step-up: without the refresh token the SDK asks the user for the wider scopes.
    const { refresh_token: _refresh, ...rest } = tokens;
    return rest;
  }

  /** Until the next saved tokens, hides the refresh token from the SDK (a refresh cannot widen scopes). */
  skipRefreshUntilAuthorized(): void {
    this.#skipRefresh = true;
  }

  /** Stores tokens with their expiry time. */
  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : undefined;
    await this.update((credentials) => ({ ...credentials, tokens, expiresAt }));
    this.#attemptOpen = false;
    this.#skipRefresh = false;
  }

  /** Records the URL; the runtime passes it to the host's `onAuthorization`. */
  redirectToAuthorization(authorizationUrl: URL): void {
    this.phase = "authorization";
    this.#pending = authorizationUrl;
  }

  /** The authorization URL waiting for the host, once. */
  takePendingAuthorization(): URL | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    return pending;
  }

  /** {@link OAuthClientProvider.saveCodeVerifier} (memory: it lives as long as the flow). */
  saveCodeVerifier(codeVerifier: string): void {
    this.phase = "authorization";
    this.#verifier = codeVerifier;
  }

  /** {@link OAuthClientProvider.codeVerifier} */
  codeVerifier(): string {
    if (this.#verifier === undefined)
      throw new Error(`No OAuth authorization of MCP server ${this.key.serverId} is in progress: start it again with McpManager action=login.`);
    return this.#verifier;
  }

  /** Client credentials: the token request of a machine client; undefined (the SDK's default) otherwise. */
  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (!this.machine) return undefined;
    const params = new URLSearchParams({ grant_type: "client_credentials" });
    const wanted = scope ?? this.#options.auth?.scope;
    if (wanted) params.set("scope", wanted);
    return params;
  }

  /** {@link OAuthClientProvider.saveDiscoveryState} (memory). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // Without authorization server metadata the SDK falls back to default endpoints; a failure there is still discovery's.
    this.#metadataFound = state.authorizationServerMetadata !== undefined;
    this.phase = this.#metadataFound ? "registration" : "discovery";
    this.#discovery = state;
  }

  /** {@link OAuthClientProvider.discoveryState}; its call starts an attempt. */
  discoveryState(): OAuthDiscoveryState | undefined {
    this.phase = "discovery";
    this.#attemptOpen = true;
    return this.#discovery;
  }

  /** Forgets what the server said is no longer valid; `all` deletes the stored record. */
  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    if (scope === "verifier" || scope === "all") this.#verifier = undefined;
    if (scope === "discovery" || scope === "all") this.#discovery = undefined;
    if (scope === "tokens") await this.update(({ tokens: _tokens, expiresAt: _expiresAt, ...rest }) => rest);
    if (scope === "client") await this.update(({ clientInformation: _client, ...rest }) => rest);
    if (scope === "all") await this.update(() => ({}));
  }

  /** Forgets everything in memory (the store is cleared by the caller). */
  forget(): void {
    this.#verifier = undefined;
    this.#state = undefined;
    this.#pending = undefined;
    this.#discovery = undefined;
    this.#attemptOpen = false;
    this.#loading = Promise.resolve({});
  }

  /** The step an attempt that has not ended with tokens stopped at (failed, or waiting for the host); undefined otherwise. */
  unfinishedPhase(): McpOAuthPhase | undefined {
    return this.#attemptOpen ? this.phase : undefined;
  }

  /** A secret-free summary of the stored credentials. */
  async summary(): Promise<McpOAuthCredentialSummary> {
    const credentials = await this.load();
    const tokens = credentials.tokens;
    return {
      authorized: tokens?.access_token !== undefined,
      ...(credentials.expiresAt !== undefined ? { expiresAt: credentials.expiresAt } : {}),
      ...(tokens?.scope ? { scopes: tokens.scope } : {}),
      refreshable: tokens?.refresh_token !== undefined,
      registered: credentials.clientInformation !== undefined,
    };
  }

  private load(): Promise<McpOAuthCredentials> {
    this.#loading ??= (async () => {
      const value = await (await this.#options.store()).load(this.key);
      return value === undefined ? {} : openMcpOAuthCredentials(value, this.key, this.#options.encryptionKey);
    })().catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading;
  }

  /** Read-modify-write, one at a time, so two saves of one flow never lose each other. */
  private update(change: (credentials: McpOAuthCredentials) => McpOAuthCredentials): Promise<void> {
    const run = this.#writing.then(async () => {
      const next = change(await this.load());
      this.#loading = Promise.resolve(next);
      const store = await this.#options.store();
      if (Object.keys(next).length === 0) await store.delete(this.key);
      else await store.save(this.key, sealMcpOAuthCredentials(next, this.key, this.#options.encryptionKey));
    });
    this.#writing = run.catch(() => undefined);
    return run;
  }
}
