import { type Logger, ToolError } from "@agent-tools/core";
import type { McpManifest, McpManifestStore } from "@agent-tools/core/mcp";
import { McpManifestBook } from "./lifecycle/manifest-book.js";
import { DEFAULT_IDLE_STOP_MS, McpServerActivity } from "./lifecycle/server-activity.js";
import type { McpRemoteTool } from "./mcp-remote-types.js";
import { type McpConnectionOptions, McpServerConnection, connectionKey } from "./server-connection.js";
import type { McpServerConfig } from "./settings.js";

/** A short, JSON-serialisable view of one server's runtime. */
export interface McpRuntimeStatus {
  serverId: string;
  state: McpServerConnection["state"] | "stopped";
  toolsCount: number;
  lastError?: string;
  serverInfo?: { name: string; version: string };
}

/** Options of {@link McpRuntime}: those of every connection, plus the manifest cache and the idle stop. */
export interface McpRuntimeOptions extends McpConnectionOptions {
  /** Where manifests persist; absent: only in memory, and a stop forgets them. */
  manifestStore?: McpManifestStore;
  /** The project the manifests belong to, part of their key (see `mcpConfigHash`); default `""`. */
  manifestScope?: string;
  /** A started server unused for this long is stopped; default 600 000; 0: never. */
  idleStopMs?: number;
  logger?: Logger;
}

/** The tools a server is listed with: its live listing, or its cached manifest. */
export interface McpServerListing {
  tools: McpRemoteTool[];
  warnings: string[];
  /** `live`: from the running connection; `manifest`: from the cache, the server is not running. */
  source: "live" | "manifest";
}

/**
 * The connections of one registry: one per server id, reused while the
 * server's configuration stays the same, replaced when it changes, all
 * closed by {@link McpRuntime.close}. It also keeps each server's manifest
 * (see {@link McpManifestBook}) and stops servers left unused for
 * `idleStopMs` (see {@link McpServerActivity}).
 */
export class McpRuntime {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly listeners = new Set<(connection: McpServerConnection) => void>();
  private closed = false;
  private readonly options: McpConnectionOptions;
  /** The manifests of this runtime's servers. */
  readonly manifests: McpManifestBook;
  /** Uses and idle timers of the connections. */
  readonly activity: McpServerActivity;

  constructor(options: McpRuntimeOptions = {}) {
    const { manifestStore, manifestScope, idleStopMs, logger, ...connectionOptions } = options;
    this.manifests = new McpManifestBook({ store: manifestStore, scope: manifestScope, logger });
    this.activity = new McpServerActivity(idleStopMs ?? DEFAULT_IDLE_STOP_MS, (connection) => {
      if (this.connections.get(connection.config.id) !== connection) return;
      void this.stop(connection.config.id, { keepManifest: true }).catch((error: unknown) => {
        logger?.warn(`MCP idle stop of ${connection.config.id} failed: ${(error as Error).message}`);
      });
    });
    this.options = {
      ...connectionOptions,
      onToolsChanged: (connection) => this.notify(connection),
      onToolsListed: (connection) => this.listed(connection),
    };
  }

  /** The options every connection of this runtime gets (for a transient connection of McpManager's test). */
  get connectionOptions(): McpConnectionOptions {
    return this.options;
  }

  /** Subscribes to tool-list changes of any server; returns the unsubscribe function. */
  onToolsChanged(listener: (connection: McpServerConnection) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(connection: McpServerConnection): void {
    if (this.connections.get(connection.config.id) !== connection) return;
    for (const listener of this.listeners) listener(connection);
  }

  /** A live listing of one of our connections: it becomes the server's manifest (put), its idle clock starts, listeners hear of a change. */
  private listed(connection: McpServerConnection): void {
    if (this.closed || this.connections.get(connection.config.id) !== connection) return;
    const changed = this.manifests.record(connection);
    this.activity.touch(connection);
    if (changed) this.notify(connection);
  }

  /** The connection for `config`: the live one if its configuration is unchanged, else a new one (the old one is closed). */
  connectionFor(config: McpServerConfig): McpServerConnection {
    if (this.closed)
      throw new ToolError("unavailable", "The MCP runtime is closed (the registry was closed); MCP servers cannot be used any more.", { recoverable: false });
    const existing = this.connections.get(config.id);
    if (existing && existing.key === connectionKey(config) && existing.state !== "closed") return existing;
    if (existing) {
      this.activity.forget(existing);
      void existing.close();
    }
    const connection = new McpServerConnection(config, this.options);
    this.connections.set(config.id, connection);
    return connection;
  }

  /**
   * Runs one use of a server (a tool call, a resource read, a prompt get) on
   * its connection, starting the server if needed: the idle clock stops
   * for the use and restarts when the last one ends.
   */
  async use<T>(config: McpServerConfig, operation: (connection: McpServerConnection) => Promise<T>): Promise<T> {
    const connection = this.connectionFor(config);
    this.activity.begin(connection);
    try {
      return await operation(connection);
    } finally {
      this.activity.end(connection);
    }
  }

  /** The current connection of a server, without creating one. */
  peek(serverId: string): McpServerConnection | undefined {
    return this.connections.get(serverId);
  }

  /** Every connection, in insertion order. */
  all(): McpServerConnection[] {
    return [...this.connections.values()];
  }

  /**
   * The tools `config` is listed with: the connection's live listing while
   * it is not closed, else the held manifest of the same configuration.
   */
  listingFor(config: McpServerConfig): McpServerListing | undefined {
    const connection = this.connections.get(config.id);
    if (connection && connection.state !== "closed" && connection.listedAt !== undefined)
      return { tools: connection.tools, warnings: connection.toolListWarnings, source: "live" };
    const manifest: McpManifest | undefined = this.manifests.held(config);
    return manifest ? { tools: manifest.tools, warnings: [], source: "manifest" } : undefined;
  }

  /**
   * Stops a server's connection; true when one was running. Its manifest
   * stays listed when the manifests persist or `keepManifest` is set (an
   * idle stop); otherwise its tools go with it.
   */
  async stop(serverId: string, options: { keepManifest?: boolean } = {}): Promise<boolean> {
    if (!(options.keepManifest ?? this.manifests.persistent)) this.manifests.forget(serverId);
    const connection = this.connections.get(serverId);
    if (!connection) return false;
    this.connections.delete(serverId);
    this.activity.forget(connection);
    const wasLive = connection.state === "connected" || connection.state === "connecting";
    await connection.close();
    if (wasLive) for (const listener of this.listeners) listener(connection);
    return wasLive;
  }

  /** Status of a server's runtime. */
  status(serverId: string): McpRuntimeStatus {
    const connection = this.connections.get(serverId);
    if (!connection) return { serverId, state: "stopped", toolsCount: 0 };
    return { serverId, state: connection.state, toolsCount: connection.tools.length, lastError: connection.lastError, serverInfo: connection.serverInfo };
  }

  /** Closes every connection and clears the idle timers (after the pending manifest puts); the runtime cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.activity.close();
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(connections.map((connection) => connection.close()));
    await this.manifests.flush();
  }
}
