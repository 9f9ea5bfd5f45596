/**
 * One server's step of a registry build or refresh: a fresh cached manifest
 * lists its tools without starting it; otherwise it is started (connected
 * and listed, which puts its manifest). Also what the bundles hand the
 * resource and prompt code, and the check of `idleStopMs`.
 */
import { SdkError, ToolError } from "@agent-tools/core";
import type { McpRuntime } from "../mcp-runtime.js";
import type { McpServerAccess } from "../resources/resource-access.js";
import { connectionKey } from "../server-connection.js";
import { type McpServerConfig, type McpSettings, selectEnabledMcpServers } from "../settings.js";

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

/**
 * The lifecycle's part of the resource and prompt code's access: a server
 * that is not running offers what its cached manifest says, and each read
 * or prompt get is a use of the server (its idle clock waits for it).
 */
export function lifecycleServerAccess(getSettings: () => McpSettings, runtime: McpRuntime): Pick<McpServerAccess, "manifestFeatures" | "withUse"> {
  const enabledServer = (serverId: string) => selectEnabledMcpServers(getSettings()).find((server) => server.id === serverId);
  return {
    manifestFeatures: (serverId) => {
      const server = enabledServer(serverId);
      return server ? runtime.manifests.held(server)?.capabilities : undefined;
    },
    withUse: (serverId, run) => {
      const server = enabledServer(serverId);
      return server ? runtime.use(server, () => run()) : run();
    },
  };
}

/** `idleStopMs` as given, checked: a non-negative finite number (0: never stop); anything else throws SdkError naming it. */
export function checkIdleStopMs(value: number | undefined): number | undefined {
  if (value === undefined || (typeof value === "number" && Number.isFinite(value) && value >= 0)) return value;
  throw new SdkError(
    "invalid_options",
    `idleStopMs must be a non-negative number of milliseconds (0: never stop), not ${String(value)}; the default is 600000.`,
    {
      option: "idleStopMs",
    },
  );
}
