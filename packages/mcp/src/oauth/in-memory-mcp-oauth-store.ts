import type { McpOAuthStore, McpOAuthStoreKey } from "./mcp-oauth-store.js";

/**
 * An {@link McpOAuthStore} in a map: credentials last as long as the
 * process (the default when the host gives neither a store nor a storage).
 *
 * @example
 * const store = new InMemoryMcpOAuthStore();
 * await createMcpToolBundles({ getSettings, oauth: { onAuthorization, store } });
 */
export class InMemoryMcpOAuthStore implements McpOAuthStore {
  readonly #records = new Map<string, { serverId: string; value: string }>();

  /** {@inheritDoc McpOAuthStore.load} */
  async load(key: McpOAuthStoreKey): Promise<string | undefined> {
    return this.#records.get(recordKey(key))?.value;
  }

  /** {@inheritDoc McpOAuthStore.save} */
  async save(key: McpOAuthStoreKey, value: string): Promise<void> {
    this.#records.set(recordKey(key), { serverId: key.serverId, value });
  }

  /** {@inheritDoc McpOAuthStore.delete} */
  async delete(key: { readonly serverId: string; readonly serverUrl?: string }): Promise<void> {
    if (key.serverUrl !== undefined) {
      this.#records.delete(recordKey({ serverId: key.serverId, serverUrl: key.serverUrl }));
      return;
    }
    for (const [entry, record] of this.#records) if (record.serverId === key.serverId) this.#records.delete(entry);
  }
}

function recordKey(key: McpOAuthStoreKey): string {
  return JSON.stringify([key.serverId, key.serverUrl]);
}
