/**
 * The shape of a host's MCP settings (servers, their transport and OAuth
 * settings) and of the ops that change them. Contracts only: normalising,
 * validating and applying them is `@agent-tools/mcp`'s job.
 */

/** How the SDK talks to a server. */
export type McpTransportKind = "stdio" | "http" | "sse";

/** The OAuth grants a server's settings may name; `authorization_code` is the default. */
export type McpOAuthGrant = "authorization_code" | "client_credentials";

/** One token endpoint authentication method. */
export type McpTokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/** A server's OAuth settings. */
export interface McpServerAuthConfig {
  /**
   * `authorization_code` (default): a user signs in once through the host's
   * `onAuthorization`; `client_credentials`: a machine client with
   * `clientId` and `clientSecret`, no user.
   */
  grant?: McpOAuthGrant;
  /** A client registered with the authorization server beforehand; absent: a client ID metadata document or dynamic registration. */
  clientId?: string;
  /** The pre-registered client's secret (shown as `<redacted>` by McpManager). */
  clientSecret?: string;
  /** How the client authenticates at the token endpoint; default: what the server supports, basic first. */
  tokenEndpointAuthMethod?: McpTokenEndpointAuthMethod;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scope?: string;
}

/** One configured MCP server. `id` is its name and the key of every operation. */
export interface McpServerConfig {
  /** The server's name; part of every tool name (`mcp_<id>_<tool>`). */
  id: string;
  description?: string;
  docsUrl?: string;
  /** Only enabled servers are loaded. */
  enabled: boolean;
  /** `stdio` (default), `http` (Streamable HTTP) or `sse` (legacy HTTP+SSE). */
  transport: McpTransportKind;
  /** stdio: the executable. */
  command: string;
  /** stdio: its arguments. */
  args: string[];
  /** http / sse: the endpoint URL. */
  url: string;
  /** stdio: extra environment variables (merged over a safe default environment). */
  env?: Record<string, string>;
  /** stdio: working directory of the server process. */
  cwd?: string;
  /** http / sse: extra request headers (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /** Connect and per-request timeout; `<= 0` means the default 60 000. */
  timeoutMs: number;
  /** sse: the POST endpoint to use when the server announces none within 3 s; relative to `url`. */
  messageUrl?: string;
  /** http / sse: OAuth settings (grant, pre-registered client, scope); tokens are never stored here. */
  auth?: McpServerAuthConfig;
  /** How long a cached manifest (tool list) stays fresh, in ms; default 86 400 000 (a day); 0: refetched at every registry build. */
  ttlMs?: number;
}

/** The MCP part of a host's settings. */
export interface McpSettings {
  servers: McpServerConfig[];
  /** Ids the host UI marks as selected; kept to existing ids. */
  selected: string[];
}

/** A loosely typed server configuration as a host or a model may send it. */
export type McpServerConfigInput = Partial<Omit<McpServerConfig, "transport" | "auth">> & { id?: string; transport?: string; auth?: unknown };

/** Insert a server, or replace the one with the same id when it differs. */
export interface McpUpsertOp {
  type: "upsert";
  server: McpServerConfigInput;
}
/** Merge fields into an existing server; the id cannot change; an unknown id is a no-op. */
export interface McpPatchOp {
  type: "patch";
  id: string;
  patch: Partial<Omit<McpServerConfig, "id">>;
}
/** Remove a server by id. */
export interface McpRemoveOp {
  type: "remove";
  id: string;
}
/** Enable or disable servers by id. */
export interface McpSetEnabledOp {
  type: "setEnabled";
  serverIds: readonly string[];
  enabled: boolean;
}
/** One settings change. */
export type McpOp = McpUpsertOp | McpPatchOp | McpRemoveOp | McpSetEnabledOp;
