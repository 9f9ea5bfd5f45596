import { buildToolRegistry } from "./build-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";
import { defineMcpToolDeferral } from "./mcp-deferral-wiring.js";
import { builtinToolPlugins } from "./plugins/builtin-tool-plugins.js";
import type { SdkMcpPlugin } from "./plugins/sdk-mcp-plugin.js";
import { checkBuiltinToolRegistryOptionKeys } from "./registry-option-keys.js";

export type { BuiltinToolRegistryOptions } from "./builtin-tool-registry-options.js";

/**
 * Builds a registry with every built-in plugin on the Node ports: file tools,
 * shell, skills (when asked), tasks (chat), cron (when asked), memory,
 * interaction, subagents (when asked), the selected system tools, the host's
 * tools and bundles, and MCP (when settings are given); see
 * `builtinToolPlugins` for the list and `buildToolRegistry` to compose your own.
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
  const plugins = builtinToolPlugins(options);
  const { interaction, checkpoints } = options;
  const registry = await buildToolRegistry({
    ...options,
    plugins,
    ...(interaction?.planMode === undefined ? {} : { planMode: interaction.planMode }),
    ...(checkpoints?.id === undefined ? {} : { checkpoint: { id: checkpoints.id } }),
  });
  const mcp = plugins.find((plugin): plugin is SdkMcpPlugin => plugin.id === "mcp");
  // The same registry; BuiltinToolRegistry only types the results of built-in tools.
  return defineMcpToolDeferral(registry as BuiltinToolRegistry, mcp?.deferralActive);
}
