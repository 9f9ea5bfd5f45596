// Set-up shared by the buildBuiltinToolRegistry MCP tests: a registry's
// options with given MCP servers (no manifest cache), one folder per case,
// and McpManager calls as a model makes them.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { type McpServerConfigInput, type McpSettings, normalizeMcpServerConfig } from "@agent-tools/mcp";
import type { buildBuiltinToolRegistry } from "../build-builtin-tool-registry.js";
import type { BuiltinToolRegistryOptions } from "../builtin-tool-registry-options.js";

/** A registry built by buildBuiltinToolRegistry. */
export type Registry = Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;

/**
 * Options of a registry whose MCP settings are `servers` (manifest cache off),
 * with workdir `<root>/<name>/project` (created) and dataDir `<root>/<name>/data`;
 * `mcp` adds MCP options, `extra` registry options.
 */
export function mcpRegistryOptions(
  root: string,
  name: string,
  servers: McpServerConfigInput[],
  extra: Partial<BuiltinToolRegistryOptions> = {},
  mcp: Partial<NonNullable<BuiltinToolRegistryOptions["mcp"]>> = {},
): BuiltinToolRegistryOptions {
  const workdir = path.join(root, name, "project");
  mkdirSync(workdir, { recursive: true });
  const settings: McpSettings = { servers: servers.map((server) => normalizeMcpServerConfig(server)), selected: [] };
  return { workdir, dataDir: path.join(root, name, "data"), memory: false, mcp: { getSettings: () => settings, ...mcp, manifestCache: false }, ...extra };
}

/** Calls McpManager with `args` (the call id is the action). */
export function manage(registry: Registry, args: Record<string, unknown>) {
  return registry.executeToolCall({ id: String(args.action), name: "McpManager", arguments: args });
}
