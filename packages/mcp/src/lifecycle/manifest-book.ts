/**
 * The manifests a runtime knows: the last live listing of each server (or
 * the cached one it started from), and the optional store they are written
 * to and read from. Owned by one runtime; nothing here is module state.
 *
 * Invariants: a manifest is used only for a configuration with the same
 * {@link mcpConfigHash} in the same scope (the registry's project); every live listing of the runtime's connection
 * replaces the server's manifest and is `put` (puts run one at a time, in
 * order, and a failing store is logged, never thrown to a caller).
 */
import type { Logger } from "@agent-tools/core";
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { mcpConfigHash } from "../manifest/mcp-config-hash.js";
import type { McpServerConnection } from "../server-connection.js";
import type { McpServerConfig } from "../settings.js";

/** How long a cached manifest stays fresh without `ttlMs`: a day. */
export const DEFAULT_MANIFEST_TTL_MS = 86_400_000;

/** Options of {@link McpManifestBook}. */
export interface McpManifestBookOptions {
  /** Where manifests persist; absent: they live only as long as the runtime. */
  store?: McpManifestStore;
  /** The project the manifests belong to (part of every hash); default `""`. */
  scope?: string;
  logger?: Logger;
}

/** The manifest a connection's live listing makes, keyed for `scope` (see {@link mcpConfigHash}). */
export function manifestOfConnection(connection: McpServerConnection, scope: string, fetchedAt = connection.listedAt ?? Date.now()): McpManifest {
  const manifest: McpManifest = {
    serverId: connection.config.id,
    configHash: mcpConfigHash(connection.config, scope),
    fetchedAt,
    tools: connection.tools.map((tool) => ({ ...tool })),
  };
  const info = connection.serverInfo;
  if (info) manifest.serverInfo = { name: info.name, version: info.version };
  const capabilities = connection.serverCapabilities;
  if (capabilities) manifest.capabilities = capabilities;
  const instructions = connection.instructions;
  if (instructions !== undefined) manifest.instructions = instructions;
  return manifest;
}

/** True when `manifest` was fetched less than the server's `ttlMs` ago (0: never fresh). */
export function isManifestFresh(manifest: McpManifest, config: McpServerConfig, now = Date.now()): boolean {
  const ttl = config.ttlMs ?? DEFAULT_MANIFEST_TTL_MS;
  return now - manifest.fetchedAt < ttl;
}

/** The manifests of one runtime's servers, and their store. */
export class McpManifestBook {
  private readonly manifests = new Map<string, McpManifest>();
  private readonly store: McpManifestStore | undefined;
  private readonly logger: Logger | undefined;
  private readonly scope: string;
  private writes: Promise<void> = Promise.resolve();

  constructor(options: McpManifestBookOptions = {}) {
    this.store = options.store;
    this.logger = options.logger;
    this.scope = options.scope ?? "";
  }

  /** True when manifests persist in a store (a stopped server keeps its tools listed). */
  get persistent(): boolean {
    return this.store !== undefined;
  }

  /** The manifest held for `config` (same configuration hash), without reading the store. */
  held(config: McpServerConfig): McpManifest | undefined {
    const manifest = this.manifests.get(config.id);
    return manifest && manifest.configHash === mcpConfigHash(config, this.scope) ? manifest : undefined;
  }

  /**
   * A fresh manifest for `config` from memory or the store (which then
   * becomes the held one); undefined on a miss, a stale one or a store
   * failure (logged). Reads nothing without a store.
   */
  async fresh(config: McpServerConfig): Promise<McpManifest | undefined> {
    if (!this.store) return undefined;
    const held = this.held(config);
    if (held && isManifestFresh(held, config)) return held;
    let cached: McpManifest | undefined;
    try {
      cached = await this.store.get(config.id, mcpConfigHash(config, this.scope));
    } catch (error) {
      this.logger?.warn(`MCP manifest cache: reading ${config.id} failed (${(error as Error).message}); the server is started instead.`);
      return undefined;
    }
    if (!cached || cached.serverId !== config.id || !isManifestFresh(cached, config)) return undefined;
    this.manifests.set(config.id, cached);
    return cached;
  }

  /** Records a live listing of `connection` and puts it; true when its tools differ from the manifest held before. */
  record(connection: McpServerConnection): boolean {
    const manifest = manifestOfConnection(connection, this.scope);
    const before = this.held(connection.config);
    this.manifests.set(manifest.serverId, manifest);
    const store = this.store;
    if (store) {
      this.writes = this.writes
        .then(() => store.put(manifest))
        .catch((error: unknown) => {
          this.logger?.warn(`MCP manifest cache: storing ${manifest.serverId} failed (${(error as Error).message}).`);
        });
    }
    return before === undefined || JSON.stringify(before.tools) !== JSON.stringify(manifest.tools);
  }

  /** Forgets the held manifest of `serverId` (the store keeps it). */
  forget(serverId: string): void {
    this.manifests.delete(serverId);
  }

  /** Resolves when every put started so far has settled. */
  flush(): Promise<void> {
    return this.writes;
  }
}
