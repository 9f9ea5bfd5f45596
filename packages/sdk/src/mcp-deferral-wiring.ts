import type { McpHostBundles } from "@agent-tools/core/mcp";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";

/**
 * Gives `registry` its live `mcpToolDeferralActive`: true while the MCP
 * tools are deferred behind ToolSearch (their schemas estimate above the
 * tool-search budget, so they are callable but not listed until a search
 * activates them), false otherwise and without MCP. A getter, because the
 * deferral follows the servers' tools as they change.
 *
 * @example
 * defineMcpToolDeferral(registry, () => mcp.isDeferralActive());
 * registry.mcpToolDeferralActive; // true while ToolSearch stands in for the MCP tools
 */
export function defineMcpToolDeferral(registry: BuiltinToolRegistry, isDeferralActive: (() => boolean) | undefined): BuiltinToolRegistry {
  Object.defineProperty(registry, "mcpToolDeferralActive", { get: () => isDeferralActive?.() === true, enumerable: true, configurable: false });
  return registry;
}

/**
 * Gives `registry` its `mcp`: the MCP bundles of this registry (prompts,
 * servers, refresh), undefined without MCP. A getter, because the bundles
 * exist only once the MCP plugin was created.
 *
 * @example
 * defineMcpHostBundles(registry, () => plugin.hostBundles());
 * const prompts = await registry.mcp?.prompts();
 */
export function defineMcpHostBundles(registry: BuiltinToolRegistry, hostBundles: (() => McpHostBundles | undefined) | undefined): BuiltinToolRegistry {
  Object.defineProperty(registry, "mcp", { get: () => hostBundles?.(), enumerable: true, configurable: false });
  return registry;
}
