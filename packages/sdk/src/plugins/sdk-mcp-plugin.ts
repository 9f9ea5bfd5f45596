import type { RuntimeScope, ToolPlugin, ToolPluginHost } from "@agent-tools/core";
import type { McpHostOptions } from "@agent-tools/mcp";
import { sdkMcpRoots } from "../mcp-roots-wiring.js";
import { sharedSqliteLease } from "./shared-sqlite-lease.js";

/** The MCP plugin of a built-in registry and whether its ToolSearch defers MCP schemas now. */
export interface SdkMcpPlugin extends ToolPlugin {
  /** True while the registry this plugin was created in lists MCP tools only through ToolSearch. */
  deferralActive(): boolean;
}

/**
 * MCP servers as tools, McpManager and ToolSearch, when `getSettings` is
 * given. Imported only then: the MCP client stack costs ~0.3 s of start-up.
 * Settings are read-only without `applyOps` and in the cron scope; load
 * failures default to `continue` in chat and `throw` in cron. A worktree
 * child gets the servers read-only, continuing past load failures.
 */
export function sdkMcpPlugin(options: McpHostOptions): SdkMcpPlugin {
  let isDeferralActive: (() => boolean) | undefined;
  return {
    id: "mcp",
    scopes: ["chat", "cron"],
    child: "readonly",
    readonlyChild: () => sdkMcpPlugin({ ...options, applyOps: undefined, loadFailureMode: "continue" }),
    deferralActive: () => isDeferralActive?.() === true,
    async create(host) {
      const mcp = await createMcpBundles(options, host, host.runtimeScope);
      isDeferralActive = () => mcp.isDeferralActive();
      options.onReady?.(mcp);
      return mcp.bundles;
    },
  };
}

async function createMcpBundles(options: McpHostOptions, host: ToolPluginHost, runtimeScope: RuntimeScope) {
  const { onReady: _onReady, ...mcpOptions } = options;
  const { createMcpToolBundles, KyselyMcpOAuthStore } = await import("@agent-tools/mcp");
  // OAuth tokens and registrations default to the shared SQLite file (opened on the first sign-in).
  const oauthStorage = mcpOptions.oauth !== undefined && mcpOptions.oauth.store === undefined ? sharedSqliteLease(host) : undefined;
  return createMcpToolBundles({
    ...mcpOptions,
    ...(oauthStorage === undefined ? {} : { oauth: { ...mcpOptions.oauth, store: async () => KyselyMcpOAuthStore.open(await oauthStorage.get()) } }),
    runtimeScope,
    sandbox: mcpOptions.sandbox ?? host.ports.sandbox !== undefined,
    logger: host.logger,
    applyOps: runtimeScope === "chat" ? mcpOptions.applyOps : undefined,
    // The workspace and the granted roots, unless the host gives its own (or false).
    roots: mcpOptions.roots ?? sdkMcpRoots(() => (host.registry.built ? host.registry.paths : undefined), host),
    loadFailureMode: mcpOptions.loadFailureMode ?? (runtimeScope === "cron" ? "throw" : "continue"),
  });
}
