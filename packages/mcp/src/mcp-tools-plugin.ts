import type { ToolPlugin, ToolPluginHost } from "@agent-tools/core";
import type { McpHostBundles } from "@agent-tools/core/mcp";
import { leaseSqliteStorage } from "@agent-tools/storage";
import { type McpHostOptions, createMcpToolBundles } from "./mcp-tool-bundles.js";
import { mcpManifestScope } from "./lifecycle/manifest-scope.js";
import { checkMcpManifestCacheOption, resolveMcpManifestCache } from "./manifest/default-mcp-manifest-store.js";
import { KyselyMcpOAuthStore } from "./oauth/kysely-mcp-oauth-store.js";
import { workspaceMcpRoots } from "./workspace-roots.js";

/** The MCP plugin and whether its ToolSearch defers MCP schemas now. */
export interface McpToolsPlugin extends ToolPlugin {
  /** True while the registry this plugin was last created in lists MCP tools only through ToolSearch. */
  deferralActive(): boolean;
  /** The MCP bundles of the registry this plugin was last created in (prompts, servers, refresh); undefined before. */
  hostBundles(): McpHostBundles | undefined;
}

/**
 * MCP servers as tools, McpManager and ToolSearch (chat and cron). Settings
 * are read-only without `applyOps` and in the cron scope; load failures
 * default to `continue` in chat and `throw` in cron; OAuth tokens default to
 * the SQLite file of the host's data directory (through its resource hub),
 * and so does the manifest cache (`manifestCache`; `false` turns it off);
 * servers may list the workspace and the granted roots unless `roots` is the
 * host's own getter or `false`. Cached manifests are keyed by the registry's
 * project (its workspace), so projects sharing a `dataDir` never share one. A
 * worktree child gets the servers read-only, continuing past load failures,
 * without calling `onReady`, and its parent's manifest scope.
 *
 * @example
 * const registry = await buildToolRegistry({ workdir, plugins: [mcpTools({ getSettings: () => settings })] });
 */
export function mcpTools(options: McpHostOptions): McpToolsPlugin {
  return createMcpToolsPlugin(options, undefined);
}

/** `mcpTools`, with the manifest scope of the parent registry for a worktree child (the same project). */
function createMcpToolsPlugin(options: McpHostOptions, parentScope: (() => string | undefined) | undefined): McpToolsPlugin {
  checkMcpManifestCacheOption(options.manifestCache, "mcp.manifestCache");
  let isDeferralActive: (() => boolean) | undefined;
  let created: McpHostBundles | undefined;
  let scope: string | undefined;
  return {
    id: "mcp",
    scopes: ["chat", "cron"],
    child: "readonly",
    // onReady is the host's handle on its own registry's servers: a child's (closed with the child) is not handed over.
    readonlyChild: () => createMcpToolsPlugin({ ...options, applyOps: undefined, loadFailureMode: "continue", onReady: undefined }, () => scope),
    deferralActive: () => isDeferralActive?.() === true,
    hostBundles: () => created,
    async create(host) {
      scope = parentScope?.() ?? hostManifestScope(host);
      const mcp = await createMcpBundles(options, host, scope);
      isDeferralActive = () => mcp.isDeferralActive();
      created = mcp;
      options.onReady?.(mcp);
      return mcp.bundles;
    },
  };
}

/** The label of the non-local workspace `host` works on; undefined for a local one. */
function remoteWorkspaceOf(host: ToolPluginHost): string | undefined {
  return host.ports.workspace?.capabilities.localPaths === false ? host.ports.workspace.label : undefined;
}

/** The project `host`'s registry works on, as the manifest cache's scope. */
function hostManifestScope(host: ToolPluginHost): string {
  const remoteWorkspace = remoteWorkspaceOf(host);
  return mcpManifestScope({ workdir: host.workdir, ...(remoteWorkspace === undefined ? {} : { remoteWorkspace }) });
}

async function createMcpBundles(options: McpHostOptions, host: ToolPluginHost, manifestScope: string) {
  const { onReady: _onReady, ...mcpOptions } = options;
  const runtimeScope = host.runtimeScope;
  // On a non-local workspace the model's commands run there: McpManager starts no stdio server the model names here.
  const remoteWorkspace = remoteWorkspaceOf(host);
  // OAuth tokens and registrations default to the shared SQLite file (opened on the first sign-in).
  const oauthStorage =
    mcpOptions.oauth !== undefined && mcpOptions.oauth.store === undefined
      ? leaseSqliteStorage({ dataDir: host.dataDir, resources: host.resources })
      : undefined;
  return createMcpToolBundles({
    ...mcpOptions,
    ...(oauthStorage === undefined ? {} : { oauth: { ...mcpOptions.oauth, store: async () => KyselyMcpOAuthStore.open(await oauthStorage.get()) } }),
    // Cached tool listings default to the same host-owned SQLite file (opened on first use; no cache if it cannot open).
    manifestCache: resolveMcpManifestCache(mcpOptions.manifestCache, host),
    // Keyed by project too: registries of two projects sharing the dataDir never share a manifest (a worktree child keeps its parent's).
    manifestScope,
    runtimeScope,
    sandbox: mcpOptions.sandbox ?? host.ports.sandbox !== undefined,
    ...(remoteWorkspace === undefined ? {} : { remoteWorkspace }),
    logger: host.logger,
    // The resource tools ask the registry's approval whether a server is denied as a whole.
    approvalView: host.registry,
    applyOps: runtimeScope === "chat" ? mcpOptions.applyOps : undefined,
    // The workspace and the granted roots, unless the host gives its own (or false).
    roots: mcpOptions.roots ?? workspaceMcpRoots(() => (host.registry.built ? host.registry.paths : undefined), host),
    loadFailureMode: mcpOptions.loadFailureMode ?? (runtimeScope === "cron" ? "throw" : "continue"),
  });
}
