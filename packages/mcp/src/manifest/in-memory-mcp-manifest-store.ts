import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { MAX_MCP_MANIFESTS_PER_SERVER } from "./mcp-manifest-schema.js";

/**
 * An {@link McpManifestStore} in a map: manifests last as long as the
 * store. Keeps up to 16 manifests per server id, one per configuration hash
 * (a put beyond that drops the oldest by `fetchedAt`), and hands out deep
 * copies, so a caller changing a returned manifest never changes the cache.
 *
 * @example
 * const manifestCache = new InMemoryMcpManifestStore();
 * await createMcpToolBundles({ getSettings, manifestCache });
 */
export class InMemoryMcpManifestStore implements McpManifestStore {
  /** Server id -> configuration hash -> manifest (insertion order: oldest put first). */
  readonly #servers = new Map<string, Map<string, McpManifest>>();

  /** {@inheritDoc McpManifestStore.get} */
  async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
    const manifest = this.#servers.get(serverId)?.get(configHash);
    return manifest === undefined ? undefined : structuredClone(manifest);
  }

  /** {@inheritDoc McpManifestStore.put} */
  async put(manifest: McpManifest): Promise<void> {
    let hashes = this.#servers.get(manifest.serverId);
    if (hashes === undefined) {
      hashes = new Map();
      this.#servers.set(manifest.serverId, hashes);
    }
    hashes.delete(manifest.configHash);
    hashes.set(manifest.configHash, structuredClone(manifest));
    while (hashes.size > MAX_MCP_MANIFESTS_PER_SERVER) {
      // The oldest by fetchedAt; of equals, the one put first.
      let oldest: McpManifest | undefined;
      for (const held of hashes.values()) if (oldest === undefined || held.fetchedAt < oldest.fetchedAt) oldest = held;
      if (oldest === undefined) break;
      hashes.delete(oldest.configHash);
    }
  }

  /** {@inheritDoc McpManifestStore.delete} */
  async delete(serverId: string): Promise<void> {
    this.#servers.delete(serverId);
  }
}
