import type { ToolPlugin } from "@agent-tools/core";
import type { McpHostBundles, McpHostOptions } from "@agent-tools/core/mcp";
import { type LoadedMcpPackage, loadMcpPackage } from "./load-mcp-package.js";

/** The MCP plugin of a built-in registry and whether its ToolSearch defers MCP schemas now. */
export interface SdkMcpPlugin extends ToolPlugin {
  /** True while the registry this plugin was created in lists MCP tools only through ToolSearch. */
  deferralActive(): boolean;
  /** The MCP bundles of the registry this plugin was created in; undefined before. */
  hostBundles(): McpHostBundles | undefined;
}

/**
 * `mcpTools` of `@agent-tools/mcp`, imported only when MCP is configured and
 * the registry is built: the MCP client stack costs ~0.3 s of start-up, and
 * the package is an optional peer (a host without it gets an `SdkError`
 * naming the install command, see {@link loadMcpPackage}).
 */
export function sdkMcpPlugin(options: McpHostOptions, readonly = false): SdkMcpPlugin {
  let plugin: ReturnType<LoadedMcpPackage["mcpTools"]> | undefined;
  return {
    id: "mcp",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => sdkMcpPlugin(options, true),
    deferralActive: () => plugin?.deferralActive() === true,
    hostBundles: () => plugin?.hostBundles(),
    async create(host) {
      const { mcpTools } = await loadMcpPackage();
      const full = mcpTools(options);
      plugin = readonly ? (full.readonlyChild?.() as ReturnType<LoadedMcpPackage["mcpTools"]>) : full;
      return plugin.create(host);
    },
  };
}
