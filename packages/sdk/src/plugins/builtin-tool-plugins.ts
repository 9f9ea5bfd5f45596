import type { ToolPlugin } from "@agent-tools/core";
import { fsTools } from "@agent-tools/tools-fs";
import { shellTools } from "@agent-tools/tools-shell";
import type { BuiltinToolRegistryOptions } from "../builtin-tool-registry-options.js";
import { resolveEditSurface, withEditSurface } from "../edit-surface.js";
import { hostBundlesPlugin, hostToolsPlugin } from "./host-tools-plugin.js";
import { interactionPlugin } from "./interaction-plugin.js";
import { sdkCronPlugin } from "./sdk-cron-plugin.js";
import { sdkLspPlugin } from "./sdk-lsp-plugin.js";
import { sdkMcpPlugin } from "./sdk-mcp-plugin.js";
import { sdkMemoryPlugin } from "./sdk-memory-plugin.js";
import { sdkSkillsPlugin } from "./sdk-skills-plugin.js";
import { sdkSshPlugin } from "./sdk-ssh-plugin.js";
import { sdkSubagentsPlugin } from "./sdk-subagents-plugin.js";
import { sdkTaskPlugin } from "./sdk-task-plugin.js";
import { sdkWebPlugin } from "./sdk-web-plugin.js";
import { systemToolsPlugin } from "./system-tools-plugin.js";

/**
 * The plugins `buildBuiltinToolRegistry` composes, in their order (the
 * order of the tools): file tools, shell, skills, tasks, cron, memory,
 * SSHManager, WebFetch, LSP, interaction, subagents, system tools, the host's tools and bundles, MCP.
 * Each feature comes from its one option; an absent option leaves its
 * plugin out (memory and interaction are on unless turned off). The file
 * tools list Edit or ApplyPatch (or both) as `editSurface` chooses; its
 * options are checked here (`SdkError` naming a wrong value).
 *
 * @example
 * const plugins = builtinToolPlugins({ workdir, memory: false });
 * const registry = await buildToolRegistry({ workdir, plugins: [...plugins, myPlugin] });
 */
export function builtinToolPlugins(options: BuiltinToolRegistryOptions): ToolPlugin[] {
  const plugins: ToolPlugin[] = [withEditSurface(fsTools(options.fs), resolveEditSurface(options)), shellTools(options.shell)];
  if (options.skills !== undefined) plugins.push(sdkSkillsPlugin(options.skills));
  plugins.push(sdkTaskPlugin(options));
  if (options.cron !== undefined) plugins.push(sdkCronPlugin(options.cron));
  if (options.memory !== false) plugins.push(sdkMemoryPlugin(options.memory ?? {}));
  if (options.ssh !== undefined) plugins.push(sdkSshPlugin(options.ssh));
  if (options.webFetch !== undefined) plugins.push(sdkWebPlugin(options.webFetch));
  if (options.lsp !== undefined && options.lsp !== false) plugins.push(sdkLspPlugin(options.lsp, options.permissions));
  plugins.push(interactionPlugin(options.interaction));
  if (options.subagents !== undefined) plugins.push(sdkSubagentsPlugin(options.subagents));
  if (options.systemTools !== undefined) plugins.push(systemToolsPlugin(options.systemTools));
  if (options.tools !== undefined) plugins.push(hostToolsPlugin(options.tools));
  if (options.bundles !== undefined) plugins.push(hostBundlesPlugin(options.bundles));
  if (typeof options.mcp?.getSettings === "function") plugins.push(sdkMcpPlugin(options.mcp));
  return plugins;
}
