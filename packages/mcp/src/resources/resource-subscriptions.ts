/**
 * Resource subscriptions of one set of MCP bundles. A subscription lives on
 * one client (one session of the server): after a reconnect it is gone and
 * `isSubscribed` says so, so the next `subscribe: true` sends it again.
 * Each `notifications/resources/updated` of a URI subscribed on that session
 * goes to the host's callback and marks the URI "updated since last read"
 * until it is read again; any other is dropped.
 */
import type { Logger } from "@agent-tools/core";
import type { McpResourceUpdate } from "@agent-tools/core/mcp";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { readBufferOverflowLimit } from "../message-size-limit.js";

/** What {@link McpResourceSubscriptions} reports to. */
export interface McpResourceSubscriptionOptions {
  /** The host's `onResourceUpdated`; a throw is logged, never passed on. */
  onResourceUpdated?(update: McpResourceUpdate): void;
  logger?: Logger;
}

const keyOf = (serverId: string, uri: string) => JSON.stringify([serverId, uri]);

/** Subscribed URIs, their update marks, and the notification handler on each client. */
export class McpResourceSubscriptions {
  private readonly options: McpResourceSubscriptionOptions;
  /** Clients whose notification handler is installed. */
  private readonly installed = new WeakSet<Client>();
  /** `[server, uri]` -> the client the subscription was made on. */
  private readonly subscriptions = new Map<string, Client>();
  private readonly updated = new Set<string>();
  /** Waiting requests of each client, told when its stdio transport drops a message over the size limit. */
  private readonly overflowListeners = new WeakMap<Client, Set<(limitBytes: number) => void>>();

  constructor(options: McpResourceSubscriptionOptions = {}) {
    this.options = options;
  }

  /**
   * Installs the `notifications/resources/updated` handler on `client`, and
   * a watch for the SDK's stdio overflow report (once per client).
   */
  install(serverId: string, client: Client): void {
    if (this.installed.has(client)) return;
    this.installed.add(client);
    const listeners = new Set<(limitBytes: number) => void>();
    this.overflowListeners.set(client, listeners);
    const previous = client.onerror;
    client.onerror = (error) => {
      previous?.(error);
      const limit = readBufferOverflowLimit(error);
      if (limit !== undefined) for (const listener of [...listeners]) listener(limit);
    };
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      const uri = notification.params.uri;
      // Only what was subscribed on this very session: a server cannot flood the host (or the marks) with URIs nobody asked about.
      if (typeof uri !== "string" || this.subscriptions.get(keyOf(serverId, uri)) !== client) return;
      this.updated.add(keyOf(serverId, uri));
      try {
        this.options.onResourceUpdated?.({ serverId, uri });
      } catch (error) {
        this.options.logger?.warn(`onResourceUpdated threw: ${String(error)}`);
      }
    });
  }

  /**
   * Runs `request` on `client` (installed first), rejecting with
   * `tooLarge(limit)` as soon as the client's stdio transport drops a message
   * over the SDK's size limit: the answer then never comes, and the SDK
   * takes seconds to close the process.
   */
  async failFastOnOverflow<T>(client: Client, request: Promise<T>, tooLarge: (limitBytes: number) => Error): Promise<T> {
    const listeners = this.overflowListeners.get(client);
    if (!listeners) return request;
    let listener: ((limitBytes: number) => void) | undefined;
    const overflow = new Promise<never>((_, reject) => {
      listener = (limitBytes) => reject(tooLarge(limitBytes));
      listeners.add(listener);
    });
    try {
      return await Promise.race([request, overflow]);
    } finally {
      if (listener) listeners.delete(listener);
      // The request may still reject later (connection closed): that is expected and handled here.
      request.catch(() => undefined);
    }
  }

  /** True when `uri` of `serverId` is subscribed on `client` (the server's current session). */
  isSubscribed(serverId: string, uri: string, client: Client): boolean {
    return this.subscriptions.get(keyOf(serverId, uri)) === client;
  }

  /** Records a subscription made on `client`. */
  recordSubscription(serverId: string, uri: string, client: Client): void {
    this.subscriptions.set(keyOf(serverId, uri), client);
  }

  /** True when the server said `uri` changed since it was last read. */
  isUpdated(serverId: string, uri: string): boolean {
    return this.updated.has(keyOf(serverId, uri));
  }

  /** Marks `uri` updated again (a read that cleared the mark failed). */
  markUpdated(serverId: string, uri: string): void {
    this.updated.add(keyOf(serverId, uri));
  }

  /** Clears the mark of `uri` (it was just read). */
  markRead(serverId: string, uri: string): void {
    this.updated.delete(keyOf(serverId, uri));
  }
}
