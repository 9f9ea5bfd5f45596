/**
 * One server's step of a registry build or refresh: a fresh cached manifest
 * lists its tools without starting it; otherwise it is started (connected
 * and listed, which puts its manifest).
 */
import { ToolError } from "@agent-tools/core";
import type { McpRuntime } from "../mcp-runtime.js";
import { connectionKey } from "../server-connection.js";
import type { McpServerConfig } from "../settings.js";

/** How a server was loaded: from its cached manifest (not running) or by starting it. */
export type McpServerLoad = "manifest" | "started";

/**
 * Loads one enabled server. A running connection of the same configuration
 * is kept; a fresh manifest (same configuration hash, younger than the
 * server's `ttlMs`) is used without connecting, also on a sandboxed host,
 * whose stdio servers still fail at call time; else the server is started.
 */
export async function loadMcpServer(server: McpServerConfig, runtime: McpRuntime, options: { sandbox?: boolean }): Promise<McpServerLoad> {
  const running = runtime.peek(server.id);
  const live = running !== undefined && running.state === "connected" && running.key === connectionKey(server);
  if (!live && (await runtime.manifests.fresh(server))) return "manifest";
  if (options.sandbox && server.transport === "stdio")
    throw new ToolError("permission_denied", "stdio servers cannot be started on this sandboxed host", { details: { serverId: server.id } });
  await runtime.connectionFor(server).connect();
  return "started";
}
