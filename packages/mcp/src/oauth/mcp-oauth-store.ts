/**
 * The storage port of MCP OAuth credentials: one opaque record per server id
 * and server URL (client registration, tokens), written by the provider and
 * never by the MCP settings.
 */

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
