import type { ToolPlugin } from "@agent-tools/core";
import type { McpHostOptions, McpToolsPlugin } from "@agent-tools/mcp";

/** The MCP plugin of a built-in registry and whether its ToolSearch defers MCP schemas now. */
export interface SdkMcpPlugin extends ToolPlugin {
  /** True while the registry this plugin was created in lists MCP tools only through ToolSearch. */
  deferralActive(): boolean;
}

/**
 * `mcpTools` of `@agent-tools/mcp`, imported only when MCP is configured and
 * the registry is built: the MCP client stack costs ~0.3 s of start-up.
 */
export function sdkMcpPlugin(options: McpHostOptions, readonly = false): SdkMcpPlugin {
  let plugin: McpToolsPlugin | undefined;
  return {
    id: "mcp",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => sdkMcpPlugin(options, true),
    deferralActive: () => plugin?.deferralActive() === true,
    async create(host) {
      const { mcpTools } = await import("@agent-tools/mcp");
      const full = mcpTools(options);
      plugin = readonly ? (full.readonlyChild?.() as McpToolsPlugin) : full;
      return plugin.create(host);
    },
  };
}
