/**
 * OAuth for HTTP and SSE MCP servers, as the host sees it: the sign-in
 * callback, the credential store port and the options of
 * `buildBuiltinToolRegistry({ mcp: { oauth } })`. Contracts only: the
 * providers and stores live in `@agent-tools/mcp`.
 */

/** What the runtime asks the host when a server needs a user's sign-in. */
export interface McpAuthorizationRequest {
  /** The server's id in the MCP settings. */
  serverId: string;
  /** Where the user signs in (show it, or open it in a browser). */
  authorizationUrl: string;
  /** Aborted when the sign-in is no longer wanted (the connection closed, the call was cancelled). */
  signal: AbortSignal;
}

/** The redirect the host received: the full callback URL, or its `code` and `state`. */
export type McpAuthorizationResult = { callbackUrl: string } | { code: string; state?: string };

/** The host's callback for the interactive step. */
export type McpAuthorizationCallback = (request: McpAuthorizationRequest) => Promise<McpAuthorizationResult>;

/** Which credentials a record belongs to: a changed URL is another record, so tokens never follow a server to a new URL. */
export interface McpOAuthStoreKey {
  /** The server's id in the MCP settings. */
  readonly serverId: string;
  /** The server's endpoint URL, exactly as configured. */
  readonly serverUrl: string;
}

/**
 * Where a runtime keeps OAuth credentials (dynamic client registrations and
 * tokens). Values are opaque strings: the caller serialises and, when the
 * host gave a key, encrypts them before `save`, so a store never sees a
 * secret in clear unless the host chose no key.
 *
 * Contract:
 * - `load` of a key never saved (or deleted) resolves `undefined`.
 * - `save` replaces the value of its key; other keys are untouched; the
 *   value is returned byte for byte by the next `load`.
 * - `delete` with `serverUrl` removes that record; without it, every record
 *   of the server id (any URL). Deleting nothing is not an error.
 * - Methods may be called concurrently; the last `save` of a key wins.
 */
export interface McpOAuthStore {
  /** The value saved for `key`, or `undefined`. */
  load(key: McpOAuthStoreKey): Promise<string | undefined>;
  /** Replaces the value of `key`. */
  save(key: McpOAuthStoreKey, value: string): Promise<void>;
  /** Removes the record of `key`, or every record of `serverId` when `serverUrl` is omitted. */
  delete(key: { readonly serverId: string; readonly serverUrl?: string }): Promise<void>;
}

/** Client metadata of OAuth dynamic client registration (RFC 7591), the fields a host may override. */
export interface McpOAuthClientMetadata {
  redirect_uris?: string[];
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  scope?: string;
  contacts?: string[];
  tos_uri?: string;
  policy_uri?: string;
  jwks_uri?: string;
  jwks?: unknown;
  software_id?: string;
  software_version?: string;
  software_statement?: string;
}

/** The host's OAuth options: `buildBuiltinToolRegistry({ mcp: { oauth } })`. */
export interface McpOAuthOptions {
  /** The interactive step: show the user the authorization URL and return the redirect. Absent: servers that need a user's sign-in fail with a message saying so. */
  onAuthorization?: McpAuthorizationCallback;
  /** Where tokens and registrations are kept (a store, or a factory opened on first use); default: memory, or the SDK's shared SQLite file. */
  store?: McpOAuthStore | (() => Promise<McpOAuthStore>);
  /** 32 bytes (bytes, base64 or hex): stored records are encrypted with AES-256-GCM. */
  encryptionKey?: Uint8Array | string;
  /** The redirect URL registered for this client (a loopback URL for a CLI); default `http://127.0.0.1:33418/oauth/callback`. */
  redirectUrl?: string;
  /** Overrides of the client metadata sent in dynamic registration (client_name, scope, ...). */
  clientMetadata?: McpOAuthClientMetadata;
  /** An https URL of a client ID metadata document, used where the authorization server supports them. */
  clientMetadataUrl?: string;
}
