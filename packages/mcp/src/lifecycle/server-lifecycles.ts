/**
 * Each enabled server's place in the lazy lifecycle, as `servers()` and
 * McpManager show it, read from the runtime without starting anything.
 */
import type { McpServerLifecycle, McpServerLifecycleState } from "@agent-tools/core/mcp";
import type { McpToolEntry } from "../dynamic-tools.js";
import type { McpRuntime } from "../mcp-runtime.js";
import { connectionKey } from "../server-connection.js";
import type { McpServerConfig } from "../settings.js";
import { estimateToolSchemaTokens } from "../tool-search.js";

/** The lifecycle state of one server. */
export function mcpServerLifecycleState(server: McpServerConfig, runtime: McpRuntime): McpServerLifecycleState {
  const connection = runtime.peek(server.id);
  const current = connection !== undefined && connection.key === connectionKey(server) ? connection : undefined;
  if (current?.state === "connected") return runtime.activity.invoked(current) ? "invoked" : "started";
  if (current?.state === "failed") return "failed";
  return runtime.listingFor(server) ? "manifest_known" : "configured";
}

/**
 * One {@link McpServerLifecycle} per server: its state, how many tools it
 * is listed with, the tokens their schemas cost (as ToolSearch estimates
 * them, over `entries`) and when its manifest was fetched.
 */
export function describeMcpServerLifecycles(servers: readonly McpServerConfig[], runtime: McpRuntime, entries: readonly McpToolEntry[]): McpServerLifecycle[] {
  return servers.map((server) => {
    const own = entries.filter((entry) => entry.serverId === server.id);
    const state = mcpServerLifecycleState(server, runtime);
    const lifecycle: McpServerLifecycle = {
      serverId: server.id,
      state,
      toolsCount: runtime.listingFor(server)?.tools.length ?? 0,
      manifestTokens: estimateToolSchemaTokens(own),
    };
    const manifest = runtime.manifests.held(server);
    if (manifest) lifecycle.manifestFetchedAt = manifest.fetchedAt;
    const lastError = runtime.peek(server.id)?.lastError;
    if (lastError !== undefined) lifecycle.lastError = lastError;
    return lifecycle;
  });
}

/** One line for McpManager: `lifecycle=<state> tools=<n> manifestTokens=<n> manifestFetchedAt=<ISO>`. */
export function describeLifecycleLine(lifecycle: McpServerLifecycle): string {
  const fetched = lifecycle.manifestFetchedAt === undefined ? "" : ` manifestFetchedAt=${new Date(lifecycle.manifestFetchedAt).toISOString()}`;
  return `lifecycle=${lifecycle.state} tools=${lifecycle.toolsCount} manifestTokens=${lifecycle.manifestTokens}${fetched}`;
}
