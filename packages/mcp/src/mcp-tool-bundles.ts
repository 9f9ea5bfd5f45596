import type { Logger, RuntimeScope, ToolBundle, ToolDefinition } from "@agent-tools/core";
import type { McpHostBundles, McpHostOptions } from "@agent-tools/core/mcp";
import { type McpDynamicToolBundle, createMcpDynamicToolBundle } from "./dynamic-tools.js";
import { type McpLoadReport, McpConfigError, McpLoadError } from "./mcp-errors.js";
import { createMcpClientFeatures } from "./mcp-client-features.js";
import { createMcpManagerTool } from "./mcp-manager-tool.js";
import { createMcpPromptAccess } from "./prompts/mcp-prompts.js";
import { MCP_RESOURCE_TOOL_NAMES, type McpApprovalView, createMcpResourceTools } from "./resources/mcp-resource-tools.js";
import type { McpServerAccess } from "./resources/resource-access.js";
import { checkIdleStopMs, lifecycleServerAccess, loadMcpServer } from "./lifecycle/lazy-load.js";
import { describeMcpServerLifecycles } from "./lifecycle/server-lifecycles.js";
import { McpRuntime } from "./mcp-runtime.js";
import { createMcpOAuthControl } from "./oauth/mcp-oauth-source.js";
import { assertCompleteMcpServers, selectEnabledMcpServers } from "./settings.js";
import { DEFAULT_TOOL_SEARCH_TOKEN_BUDGET, createToolSearchTool, estimateToolSchemaTokens } from "./tool-search.js";

/** Options of {@link createMcpToolBundles}: the host's options (see `McpHostOptions`) plus the scope and logger a registry supplies. */
export interface McpToolBundleOptions extends Omit<McpHostOptions, "onReady"> {
  /** Default `chat`. In `cron` McpManager refuses writes, restart and stop, and ToolSearch is off. */
  runtimeScope?: RuntimeScope;
  /** The label of the non-local workspace the registry works on: McpManager then starts no stdio server the model names (see `McpManagerEnvironment.remoteWorkspace`). */
  remoteWorkspace?: string;
  logger?: Logger;
  /**
   * The registry's approval (the plugin passes its registry view): ReadMcpResource and ListMcpResources refuse a server it
   * denies as a whole, and McpManager judges a stdio server the model writes as a Bash call (see docs/mcp.md, McpManager).
   */
  approvalView?: McpApprovalView;
  /**
   * The project cached manifests belong to (part of their key, see `mcpConfigHash`): `mcpTools` passes the
   * workspace, so two projects sharing one store never share a manifest. Default `""` (one scope for every caller).
   */
  manifestScope?: string;
}

export type { McpHostOptions } from "@agent-tools/core/mcp";

/** The MCP bundles of one registry and their shared runtime. */
export interface McpToolBundles extends McpHostBundles {
  /** Untrusted: the dynamic `mcp_<server>_<tool>` tools. */
  readonly tools: McpDynamicToolBundle;
  readonly runtime: McpRuntime;
}

/**
 * Loads the enabled MCP servers and returns the McpManager bundle and the
 * dynamic tool bundle, sharing one runtime. With a `manifestCache`, a
 * server whose cached manifest is fresh is listed without being started;
 * it starts on the first call of one of its tools (see docs/mcp-lifecycle.md, "Lazy
 * lifecycle"). Without one every enabled server is started here.
 *
 * @example
 * const store = createInMemoryMcpSettingsStore({ servers: [{ id: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] }] });
 * const mcp = await createMcpToolBundles({ getSettings: store.getSettings, applyOps: store.applyOps });
 * const registry = createToolRegistry({ workdir: process.cwd(), bundles: [...mcp.bundles] });
 */
export async function createMcpToolBundles(options: McpToolBundleOptions): Promise<McpToolBundles> {
  const runtimeScope = options.runtimeScope ?? "chat";
  const clientFeatures = createMcpClientFeatures(options);
  // Always created: without host options it serves only servers whose settings carry `auth`.
  const oauth = createMcpOAuthControl(options.oauth);
  const runtime = new McpRuntime({
    clientInfo: options.clientInfo,
    clientFeatures,
    auth: oauth,
    manifestStore: options.manifestCache === false ? undefined : options.manifestCache,
    manifestScope: options.manifestScope ?? "",
    idleStopMs: checkIdleStopMs(options.idleStopMs),
    logger: options.logger,
  });
  const activated = new Set<string>();
  const budget = options.toolSearch === false ? Infinity : (options.toolSearch?.tokenBudget ?? DEFAULT_TOOL_SEARCH_TOKEN_BUDGET);
  const searchable = runtimeScope === "chat" && budget !== Infinity;
  let deferral = false;
  const tools = createMcpDynamicToolBundle({
    getSettings: options.getSettings,
    runtime,
    logger: options.logger,
    sandbox: options.sandbox,
    isExposed: (name) => !deferral || activated.has(name),
    // Before the listeners hear of the change, so they read the new exposure.
    onRebuilt: () => {
      deferral = searchable && estimateToolSchemaTokens(tools.entries()) > budget;
    },
  });
  const rebuild = () => tools.rebuild();
  runtime.onToolsChanged(rebuild);

  let running: Promise<McpLoadReport> | undefined;
  let again = false;
  async function load(): Promise<McpLoadReport> {
    const enabled = selectEnabledMcpServers(options.getSettings());
    assertCompleteMcpServers(enabled);
    const enabledIds = new Set(enabled.map((server) => server.id));
    await Promise.allSettled(
      runtime
        .all()
        .filter((connection) => !enabledIds.has(connection.config.id))
        .map((connection) => runtime.stop(connection.config.id)),
    );
    const results = await Promise.allSettled(enabled.map((server) => loadMcpServer(server, runtime, { sandbox: options.sandbox })));
    // The manifests of the servers started here are stored before the build returns (a next registry finds them).
    await runtime.manifests.flush();
    const report: McpLoadReport = { loaded: [], failed: [] };
    results.forEach((result, index) => {
      const serverId = enabled[index]!.id;
      if (result.status === "fulfilled") report.loaded.push(serverId);
      else report.failed.push({ serverId, message: (result.reason as Error)?.message ?? String(result.reason) });
    });
    rebuild();
    if (report.failed.length > 0) {
      throw new McpLoadError(report);
    }
    return report;
  }
  function refresh(): Promise<McpLoadReport> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        let report: McpLoadReport;
        do {
          again = false;
          report = await load().catch((error: unknown) => {
            if (error instanceof McpLoadError) return error.report;
            throw error;
          });
        } while (again);
        return report;
      } finally {
        running = undefined;
      }
    })();
    return running;
  }

  try {
    await load();
  } catch (error) {
    const known = error instanceof McpLoadError || error instanceof McpConfigError;
    const partial = error instanceof McpLoadError && error.partial;
    // Anything else is a bug of ours or the host's and is not reported as a load failure.
    if (!known || (options.loadFailureMode === "throw" && !partial)) {
      await runtime.close();
      throw error;
    }
    options.logger?.warn(`MCP load: ${error.message}`);
    options.onLoadError?.(error);
  }

  const managerTools: ToolDefinition[] = [
    createMcpManagerTool({
      getSettings: options.getSettings,
      applyOps: options.applyOps,
      runtime,
      oauth,
      sandbox: options.sandbox === true,
      ...(options.remoteWorkspace === undefined ? {} : { remoteWorkspace: options.remoteWorkspace }),
      runtimeScope,
      ...(options.approvalView === undefined ? {} : { approvalView: options.approvalView }),
      rebuildTools: rebuild,
      lifecycles: (servers) => describeMcpServerLifecycles(servers, runtime, tools.entries()),
      scheduleRefresh: () => {
        refresh().catch((error: unknown) => options.logger?.warn(`MCP refresh failed: ${(error as Error).message}`));
      },
    }),
  ];
  // Resources and prompts (design section 3): the resource tools are listed while a server is known to offer resources.
  const access: McpServerAccess = {
    getSettings: options.getSettings,
    runtime,
    sandbox: options.sandbox === true,
    ...lifecycleServerAccess(options.getSettings, runtime),
  };
  const resources = createMcpResourceTools({
    ...access,
    entries: () => tools.entries(),
    approvalView: options.approvalView,
    onResourceUpdated: options.onResourceUpdated,
    logger: options.logger,
  });
  const prompts = createMcpPromptAccess(access, options.logger);
  const toolSearch = createToolSearchTool({ entries: () => tools.entries(), activated, onActivated: () => tools.notifyToolsChanged() });
  const manager: ToolBundle = {
    id: "mcp-manager",
    trusted: true,
    listTools: () => [...managerTools, ...resources.listed(), ...(deferral ? [toolSearch] : [])],
    // ToolSearch is listed only while lazy loading is active, the resource tools while a server offers resources; approval rules may name them before.
    approvalTargets: () => ({ toolNames: [...MCP_RESOURCE_TOOL_NAMES, ...(searchable ? [toolSearch.name] : [])] }),
  };
  return {
    manager,
    tools,
    bundles: [manager, tools],
    runtime,
    resolveToolName: (name) => tools.resolveToolName(name),
    isDeferralActive: () => deferral,
    refresh,
    notifyRootsChanged: () => clientFeatures?.notifyRootsChanged() ?? Promise.resolve(),
    prompts: () => prompts.prompts(),
    getPrompt: (serverId, name, args) => prompts.getPrompt(serverId, name, args),
    servers: () => describeMcpServerLifecycles(selectEnabledMcpServers(options.getSettings()), runtime, tools.entries()),
    close: () => runtime.close(),
  };
}
