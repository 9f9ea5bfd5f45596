import { buildToolRegistry } from "./build-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";
import { defineMcpHostBundles, defineMcpToolDeferral } from "./mcp-deferral-wiring.js";
import { builtinToolPlugins } from "./plugins/builtin-tool-plugins.js";
import type { SdkMcpPlugin } from "./plugins/sdk-mcp-plugin.js";
import { checkBuiltinToolRegistryOptionKeys } from "./registry-option-keys.js";
import { placeInWorkspace } from "./workspace-wiring.js";

export type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";

/**
 * Builds a registry with every built-in plugin on the Node ports: file tools,
 * shell, skills (when asked), tasks (chat), cron (when asked), memory,
 * interaction, subagents (when asked), the selected system tools, the host's
 * tools and bundles, and MCP (when settings are given); see
 * `builtinToolPlugins` for the list and `buildToolRegistry` to compose your own.
 *
 * With `workspace` the tools work there (see the option); `close()` never
 * closes a workspace the host gave: the host owns it and closes it after.
 *
 * @example
 * import { buildBuiltinToolRegistry, defineTool } from "@agent-tools/sdk";
 * const Greet = defineTool({ name: "Greet", description: "Greets someone.", inputSchema: z.object({ who: z.string() }), execute: ({ who }) => ({ content: `Hello, ${who}!` }) });
 * const registry = await buildBuiltinToolRegistry({ workdir: process.cwd(), tools: [Greet], systemTools: ["HttpGetTest"] });
 * const result = await registry.executeToolCall({ id: "1", name: "TaskList", arguments: {} });
 * await registry.close();
 */
export async function buildBuiltinToolRegistry(options: BuiltinToolRegistryOptions): Promise<BuiltinToolRegistry> {
  // Unknown or misspelt keys throw before anything starts.
  checkBuiltinToolRegistryOptionKeys(options, true);
  // The workdir and roots checked through the workspace (when one is given) before anything starts.
  const placed = await placeInWorkspace(options);
  const plugins = builtinToolPlugins(options);
  const { interaction, checkpoints } = options;
  const { workspace: _workspace, ...rest } = options;
  const registry = await buildToolRegistry({
    ...rest,
    workdir: placed.workdir as string,
    ...(placed.additionalRoots === undefined ? {} : { additionalRoots: placed.additionalRoots }),
    ...(placed.ports === undefined ? {} : { ports: placed.ports }),
    plugins,
    ...(interaction?.planMode === undefined ? {} : { planMode: interaction.planMode }),
    ...(checkpoints?.id === undefined ? {} : { checkpoint: { id: checkpoints.id } }),
  });
  const mcp = plugins.find((plugin): plugin is SdkMcpPlugin => plugin.id === "mcp");
  // The same registry; BuiltinToolRegistry only types the results of built-in tools.
  return defineMcpHostBundles(defineMcpToolDeferral(registry as BuiltinToolRegistry, mcp?.deferralActive), mcp?.hostBundles);
}
