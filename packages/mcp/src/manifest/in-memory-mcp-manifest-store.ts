import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";

/**
 * An {@link McpManifestStore} in a map: manifests last as long as the
 * store. Keeps one manifest per server (the last one put) and hands out deep
 * copies, so a caller changing a returned manifest never changes the cache.
 *
 * @example
 * const manifestCache = new InMemoryMcpManifestStore();
 * await createMcpToolBundles({ getSettings, manifestCache });
 */
export class InMemoryMcpManifestStore implements McpManifestStore {
  readonly #manifests = new Map<string, McpManifest>();

  /** {@inheritDoc McpManifestStore.get} */
  async get(serverId: string, configHash: string): Promise<McpManifest | undefined> {
    const manifest = this.#manifests.get(serverId);
    if (manifest === undefined || manifest.configHash !== configHash) return undefined;
    return structuredClone(manifest);
  }

  /** {@inheritDoc McpManifestStore.put} */
  async put(manifest: McpManifest): Promise<void> {
    this.#manifests.set(manifest.serverId, structuredClone(manifest));
  }

  /** {@inheritDoc McpManifestStore.delete} */
  async delete(serverId: string): Promise<void> {
    this.#manifests.delete(serverId);
  }
}
