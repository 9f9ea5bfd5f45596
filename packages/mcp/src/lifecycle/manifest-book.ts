/**
 * The manifests a runtime knows: the last live listing of each server (or
 * the cached one it started from), and the optional store they are written
 * to and read from. Owned by one runtime; nothing here is module state.
 *
 * Invariants: a manifest is used only for a configuration with the same
 * {@link mcpConfigHash} in the same scope (the registry's project); every live listing of the runtime's connection
 * replaces the server's manifest and is `put` (puts run one at a time, in
 * order, and a failing store is logged, never thrown to a caller). Puts are
 * coalesced per server: a listing is written at once when the server had no
 * put in the last `writeIntervalMs`, else the newest listing waits for the
 * interval's end (or {@link McpManifestBook.flush}); a listing replaced while
 * it waits is never written. So a burst of `tools/list_changed` writes a
 * handful of manifests, not one per notification.
 */
import type { Logger } from "@agent-tools/core";
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { mcpConfigHash } from "../manifest/mcp-config-hash.js";
import type { McpServerConnection } from "../server-connection.js";
import type { McpServerConfig } from "../settings.js";

/** How long a cached manifest stays fresh without `ttlMs`: a day. */
export const DEFAULT_MANIFEST_TTL_MS = 86_400_000;

/** The least time between two manifest puts of one server (later listings wait, the newest is written): a second. */
export const DEFAULT_MANIFEST_WRITE_INTERVAL_MS = 1_000;

/** Options of {@link McpManifestBook}. */
export interface McpManifestBookOptions {
  /** Where manifests persist; absent: they live only as long as the runtime. */
  store?: McpManifestStore;
  /** The project the manifests belong to (part of every hash); default `""`. */
  scope?: string;
  logger?: Logger;
  /** The least time between two puts of one server; default {@link DEFAULT_MANIFEST_WRITE_INTERVAL_MS}. */
  writeIntervalMs?: number;
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
  private readonly writeIntervalMs: number;
  private writes: Promise<void> = Promise.resolve();
  /** The newest listing of each server not yet handed to the store (queued or waiting for its interval). */
  private readonly pending = new Map<string, McpManifest>();
  /** Servers whose pending listing waits for the end of their write interval. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When each server's last put was started (epoch ms). */
  private readonly lastWrite = new Map<string, number>();

  constructor(options: McpManifestBookOptions = {}) {
    this.store = options.store;
    this.logger = options.logger;
    this.scope = options.scope ?? "";
    this.writeIntervalMs = options.writeIntervalMs ?? DEFAULT_MANIFEST_WRITE_INTERVAL_MS;
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

  /**
   * Records a live listing of `connection` and puts it (coalesced: see the
   * file's invariants); true when its tools differ from the manifest held before.
   */
  record(connection: McpServerConnection): boolean {
    const manifest = manifestOfConnection(connection, this.scope);
    const before = this.held(connection.config);
    this.manifests.set(manifest.serverId, manifest);
    if (this.store) this.schedule(manifest);
    return before === undefined || JSON.stringify(before.tools) !== JSON.stringify(manifest.tools);
  }

  /** Makes `manifest` its server's pending put: written now, or at the end of the server's interval. */
  private schedule(manifest: McpManifest): void {
    const serverId = manifest.serverId;
    const waiting = this.pending.has(serverId);
    this.pending.set(serverId, manifest);
    if (waiting) return; // the queued put or the timer takes the newest pending listing
    const wait = (this.lastWrite.get(serverId) ?? Number.NEGATIVE_INFINITY) + this.writeIntervalMs - Date.now();
    if (wait <= 0) {
      this.enqueue(serverId);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(serverId);
      this.enqueue(serverId);
    }, wait);
    timer.unref?.();
    this.timers.set(serverId, timer);
  }

  /** Queues the put of `serverId`'s pending listing (the newest one when the queue reaches it). */
  private enqueue(serverId: string): void {
    const store = this.store;
    if (!store) return;
    this.lastWrite.set(serverId, Date.now());
    this.writes = this.writes
      .then(async () => {
        const manifest = this.pending.get(serverId);
        if (manifest === undefined) return;
        this.pending.delete(serverId);
        this.lastWrite.set(serverId, Date.now());
        await store.put(manifest);
      })
      .catch((error: unknown) => {
        this.logger?.warn(`MCP manifest cache: storing ${serverId} failed (${(error as Error).message}).`);
      });
  }

  /** Forgets the held manifest of `serverId` (the store keeps it). */
  forget(serverId: string): void {
    this.manifests.delete(serverId);
  }

  /** Writes every pending listing now (none waits for its interval) and resolves when every put so far has settled. */
  flush(): Promise<void> {
    for (const [serverId, timer] of this.timers) {
      clearTimeout(timer);
      this.timers.delete(serverId);
      this.enqueue(serverId);
    }
    return this.writes;
  }
}
