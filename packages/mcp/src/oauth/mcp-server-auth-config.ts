/**
 * The `auth` part of an HTTP or SSE server's settings: which OAuth grant it
 * uses and, for a pre-registered client, its id, secret and token endpoint
 * authentication method. Tokens never live here.
 */
import type { McpOAuthGrant, McpServerAuthConfig, McpTokenEndpointAuthMethod } from "@agent-tools/core/mcp";

/** The OAuth grants a server's settings may name; `authorization_code` is the default. */
export const MCP_OAUTH_GRANTS = ["authorization_code", "client_credentials"] as const satisfies readonly McpOAuthGrant[];

/** Token endpoint authentication methods a pre-registered client may use. */
export const MCP_TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"] as const satisfies readonly McpTokenEndpointAuthMethod[];

export type { McpServerAuthConfig, McpTokenEndpointAuthMethod } from "@agent-tools/core/mcp";

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

/** A loosely typed `auth` value as settings or a model may send it, trimmed; undefined when empty or not an object. */
export function normalizeMcpServerAuth(input: unknown): McpServerAuthConfig | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const raw = input as Record<string, unknown>;
  const auth: McpServerAuthConfig = {};
  const grant = text(raw.grant);
  if (grant !== undefined) auth.grant = grant as McpServerAuthConfig["grant"];
  const clientId = text(raw.clientId);
  if (clientId !== undefined) auth.clientId = clientId;
  if (typeof raw.clientSecret === "string" && raw.clientSecret !== "") auth.clientSecret = raw.clientSecret;
  const method = text(raw.tokenEndpointAuthMethod);
  if (method !== undefined) auth.tokenEndpointAuthMethod = method as McpTokenEndpointAuthMethod;
  const scope = text(raw.scope);
  if (scope !== undefined) auth.scope = scope;
  return Object.keys(auth).length > 0 ? auth : undefined;
}

/** Static problems of a server's `auth` settings, one sentence each. */
export function validateMcpServerAuth(auth: McpServerAuthConfig | undefined, transport: string): string[] {
  if (auth === undefined) return [];
  const errors: string[] = [];
  if (transport === "stdio") errors.push("auth applies to http and sse servers only; remove it from this stdio server.");
  if (auth.grant !== undefined && !(MCP_OAUTH_GRANTS as readonly string[]).includes(auth.grant))
    errors.push(`auth.grant must be authorization_code or client_credentials, not "${auth.grant}".`);
  if (auth.tokenEndpointAuthMethod !== undefined && !(MCP_TOKEN_ENDPOINT_AUTH_METHODS as readonly string[]).includes(auth.tokenEndpointAuthMethod))
    errors.push(`auth.tokenEndpointAuthMethod must be one of ${MCP_TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}, not "${auth.tokenEndpointAuthMethod}".`);
  if (auth.grant === "client_credentials" && (auth.clientId === undefined || auth.clientSecret === undefined))
    errors.push("auth.grant client_credentials needs auth.clientId and auth.clientSecret.");
  if (auth.clientSecret !== undefined && auth.clientId === undefined) errors.push("auth.clientSecret needs auth.clientId.");
  return errors;
}
