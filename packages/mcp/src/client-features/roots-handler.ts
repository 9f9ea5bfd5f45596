/**
 * `roots/list` and `notifications/roots/list_changed`: the directories the
 * host offers to servers, and the notice that they changed.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, ListRootsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpRootsSource } from "@agent-tools/core/mcp";

export type { McpRootsSource } from "@agent-tools/core/mcp";

/** Registers the `roots/list` handler of one server's client (the capability must be declared). */
export function installRootsHandler(client: Client, roots: McpRootsSource): void {
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    const listed = await roots();
    for (const root of listed) {
      if (typeof root?.uri !== "string" || !root.uri.startsWith("file://"))
        throw new McpError(
          ErrorCode.InternalError,
          `The client's root ${JSON.stringify(root?.uri)} is not a file:// URI; the host must list directories as file:// URIs.`,
        );
    }
    return { roots: listed.map((root) => (root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name })) };
  });
}

/**
 * The latest client of each server, to tell them that the roots changed.
 * Keyed by server id, so it holds at most one client per server ever
 * configured (a reconnect replaces the entry).
 */
export class RootsChangeNotifier {
  private readonly clients = new Map<string, Client>();

  /** Remembers the newest client of a server. */
  track(serverId: string, client: Client): void {
    this.clients.set(serverId, client);
  }

  /** Sends `notifications/roots/list_changed` to every connected server; a closed or failing connection is skipped. */
  async notify(): Promise<void> {
    await Promise.all(
      [...this.clients.values()].map(async (client) => {
        if (client.transport === undefined) return;
        await client.sendRootsListChanged().catch(() => undefined);
      }),
    );
  }
}
