// A real OAuth 2.1 authorization server and a bearer-protected MCP server on 127.0.0.1, for the OAuth tests.
import { createHash } from "node:crypto";
import http from "node:http";
import { type Client, type ClientAuthMethod, type Grant, json, listen, random, readBody } from "./fixture-http.js";
import { protectedResourceHandler } from "./protected-resource.js";

export { autoApprove } from "./fixture-http.js";
export type { ClientAuthMethod } from "./fixture-http.js";

export interface OAuthTestServersOptions {
  /** Where the protected resource metadata is served: path-based (`/.well-known/oauth-protected-resource/mcp`) or root. */
  metadataForm?: "path" | "root";
  /** Send `resource_metadata` in the 401 challenge; default true. */
  challengeWithMetadataUrl?: boolean;
  /** The scopes in the resource metadata. */
  scopesSupported?: string[];
  /** Tools that need a scope beyond the token's: calls get 403 insufficient_scope. */
  toolScopes?: Record<string, string>;
  /** The authorization server the resource metadata names instead of the real one (e.g. one that is down). */
  authorizationServerOverride?: string;
  /** `/register` answers 400 with this error description. */
  refuseRegistration?: string;
  /** `/token` answers authorization_code grants with 400 invalid_request and this description. */
  refuseCodeExchange?: string;
  /** No bearer check: the MCP server answers everyone (as client `anonymous`). */
  unprotected?: boolean;
  /** Also serve the MCP server over the legacy HTTP+SSE transport at `/sse` (see `sseUrl`). */
  sse?: boolean;
}

export interface OAuthTestServers {
  mcpUrl: string;
  /** The legacy SSE endpoint, when `sse` was asked for. */
  sseUrl: string;
  issuer: string;
  /** `METHOD /path` of every request either server received, in order. */
  readonly requests: string[];
  /** How each token request authenticated its client, with its grant type. */
  readonly tokenRequests: Array<{ grantType: string; method: ClientAuthMethod; clientId: string }>;
  /** Every access and refresh token issued, for "never shown" assertions. */
  readonly issuedSecrets: string[];
  readonly clients: Map<string, Client>;
  /** Registers a client beforehand (a pre-registered one). */
  preRegister(method: ClientAuthMethod, redirectUris?: string[]): { clientId: string; clientSecret?: string };
  /** Makes every access token issued so far expired (the resource answers 401). */
  expireAccessTokens(): void;
  /** Revokes every refresh token issued so far (the token endpoint answers invalid_grant). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

/** Starts both servers; `close()` stops them. */
export async function startOAuthTestServers(options: OAuthTestServersOptions = {}): Promise<OAuthTestServers> {
  const requests: string[] = [];
  const tokenRequests: OAuthTestServers["tokenRequests"] = [];
  const issuedSecrets: string[] = [];
  const clients = new Map<string, Client>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, Grant & { expired: boolean }>();
  const refreshTokens = new Map<string, Grant & { revoked: boolean }>();
  const scopesSupported = options.scopesSupported ?? ["mcp:read"];

  const authServer = http.createServer();
  const resourceServer = http.createServer();
  const issuer = await listen(authServer);
  const resourceOrigin = await listen(resourceServer);
  const mcpUrl = `${resourceOrigin}/mcp`;
  const metadataPath = options.metadataForm === "root" ? "/.well-known/oauth-protected-resource" : "/.well-known/oauth-protected-resource/mcp";

  function issueTokens(grant: Grant, withRefresh: boolean) {
    const access = `at-${random()}`;
    accessTokens.set(access, { ...grant, expired: false });
    issuedSecrets.push(access);
    const body: Record<string, unknown> = { access_token: access, token_type: "Bearer", expires_in: 3600, scope: grant.scope };
    if (withRefresh) {
      const refresh = `rt-${random()}`;
      refreshTokens.set(refresh, { ...grant, revoked: false });
      issuedSecrets.push(refresh);
      body.refresh_token = refresh;
    }
    return body;
  }

  function authenticateClient(request: http.IncomingMessage, form: URLSearchParams): { client: Client; method: ClientAuthMethod } | undefined {
    const header = request.headers.authorization;
    let method: ClientAuthMethod;
    let id: string | null;
    let secret: string | null = null;
    if (header?.startsWith("Basic ")) {
      const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
      method = "client_secret_basic";
    } else {
      id = form.get("client_id");
      secret = form.get("client_secret");
      method = secret === null ? "none" : "client_secret_post";
    }
    const client = id === null ? undefined : clients.get(id);
    if (client === undefined || client.method !== method || (client.secret ?? null) !== secret) return undefined;
    return { client, method };
  }

  authServer.on("request", async (request, response) => {
    const url = new URL(request.url ?? "/", issuer);
    requests.push(`${request.method} ${url.pathname}`);
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      json(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
        scopes_supported: scopesSupported,
      });
      return;
    }
    if (url.pathname === "/register" && request.method === "POST" && options.refuseRegistration !== undefined) {
      await readBody(request);
      json(response, 400, { error: "invalid_client_metadata", error_description: options.refuseRegistration });
      return;
    }
    if (url.pathname === "/register" && request.method === "POST") {
      const metadata = JSON.parse(await readBody(request)) as { redirect_uris?: string[]; token_endpoint_auth_method?: ClientAuthMethod };
      const method = metadata.token_endpoint_auth_method ?? "client_secret_basic";
      const client: Client = { id: `dcr-${random()}`, method, redirectUris: metadata.redirect_uris ?? [] };
      if (method !== "none") client.secret = random();
      clients.set(client.id, client);
      json(response, 201, {
        ...metadata,
        client_id: client.id,
        ...(client.secret ? { client_secret: client.secret } : {}),
        token_endpoint_auth_method: method,
      });
      return;
    }
    if (url.pathname === "/authorize") {
      const client = clients.get(url.searchParams.get("client_id") ?? "");
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      if (client === undefined || !client.redirectUris.includes(redirectUri) || url.searchParams.get("code_challenge_method") !== "S256") {
        json(response, 400, { error: "invalid_request", error_description: "unknown client, unregistered redirect_uri or no S256 challenge" });
        return;
      }
      const code = `code-${random()}`;
      codes.set(code, {
        clientId: client.id,
        scope: url.searchParams.get("scope") ?? "",
        challenge: url.searchParams.get("code_challenge") ?? "",
        redirectUri,
      });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      const state = url.searchParams.get("state");
      if (state !== null) target.searchParams.set("state", state);
      response.writeHead(302, { location: target.href }).end();
      return;
    }
    if (url.pathname === "/token" && request.method === "POST") {
      const form = new URLSearchParams(await readBody(request));
      const authenticated = authenticateClient(request, form);
      const grantType = form.get("grant_type") ?? "";
      if (authenticated === undefined) {
        json(response, 401, { error: "invalid_client", error_description: "client authentication failed" });
        return;
      }
      const { client, method } = authenticated;
      tokenRequests.push({ grantType, method, clientId: client.id });
      if (grantType === "authorization_code" && options.refuseCodeExchange !== undefined) {
        json(response, 400, { error: "invalid_request", error_description: options.refuseCodeExchange });
        return;
      }
      if (grantType === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (code === undefined || code.clientId !== client.id || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri")) {
          json(response, 400, { error: "invalid_grant", error_description: "bad code, PKCE verifier or redirect_uri" });
          return;
        }
        json(response, 200, issueTokens(code, true));
        return;
      }
      if (grantType === "refresh_token") {
        const token = form.get("refresh_token") ?? "";
        const grant = refreshTokens.get(token);
        if (grant === undefined || grant.revoked || grant.clientId !== client.id) {
          json(response, 400, { error: "invalid_grant", error_description: "refresh token revoked" });
          return;
        }
        refreshTokens.delete(token);
        json(response, 200, issueTokens(grant, true));
        return;
      }
      if (grantType === "client_credentials" && client.secret !== undefined) {
        json(response, 200, issueTokens({ clientId: client.id, scope: form.get("scope") ?? "" }, false));
        return;
      }
      json(response, 400, { error: "unsupported_grant_type" });
      return;
    }
    json(response, 404, { error: "not_found" });
  });

  resourceServer.on("request", protectedResourceHandler({ options, issuer, resourceOrigin, mcpUrl, metadataPath, scopesSupported, requests, accessTokens }));

  return {
    mcpUrl,
    sseUrl: `${resourceOrigin}/sse`,
    issuer,
    requests,
    tokenRequests,
    issuedSecrets,
    clients,
    preRegister(method, redirectUris = []) {
      const client: Client = { id: `pre-${random()}`, method, redirectUris };
      if (method !== "none") client.secret = random();
      clients.set(client.id, client);
      return { clientId: client.id, clientSecret: client.secret };
    },
    expireAccessTokens() {
      for (const grant of accessTokens.values()) grant.expired = true;
    },
    revokeRefreshTokens() {
      for (const grant of refreshTokens.values()) grant.revoked = true;
    },
    async close() {
      authServer.closeAllConnections();
      resourceServer.closeAllConnections();
      await Promise.all([new Promise((resolve) => authServer.close(resolve)), new Promise((resolve) => resourceServer.close(resolve))]);
    },
  };
}
