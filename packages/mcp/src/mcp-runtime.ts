import { ToolError } from "@agent-tools/core";
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

/**
 * The connections of one registry: one per server id, reused while the
 * server's configuration stays the same, replaced when it changes, all
 * closed by {@link McpRuntime.close}.
 */
export class McpRuntime {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly listeners = new Set<(connection: McpServerConnection) => void>();
  private closed = false;
  private readonly options: McpConnectionOptions;

  constructor(options: McpConnectionOptions = {}) {
    this.options = { ...options, onToolsChanged: (connection) => this.notify(connection) };
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

  /** The connection for `config`: the live one if its configuration is unchanged, else a new one (the old one is closed). */
  connectionFor(config: McpServerConfig): McpServerConnection {
    if (this.closed)
      throw new ToolError("unavailable", "The MCP runtime is closed (the registry was closed); MCP servers cannot be used any more.", { recoverable: false });
    const existing = this.connections.get(config.id);
    if (existing && existing.key === connectionKey(config) && existing.state !== "closed") return existing;
    if (existing) void existing.close();
    const connection = new McpServerConnection(config, this.options);
    this.connections.set(config.id, connection);
    return connection;
  }

  /** The current connection of a server, without creating one. */
  peek(serverId: string): McpServerConnection | undefined {
    return this.connections.get(serverId);
  }

  /** Every connection, in insertion order. */
  all(): McpServerConnection[] {
    return [...this.connections.values()];
  }

  /** Stops a server's connection; true when one was running. */
  async stop(serverId: string): Promise<boolean> {
    const connection = this.connections.get(serverId);
    if (!connection) return false;
    this.connections.delete(serverId);
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

  /** Closes every connection; the runtime cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.allSettled(connections.map((connection) => connection.close()));
  }
}
