/**
 * @agent-tools/mcp: MCP servers as tools (`mcp_<server>_<tool>`), the
 * McpManager tool, the `applyMcpOps` settings reducer and ToolSearch.
 *
 * Every export here is public API; helpers stay in their files (tests import
 * them from there).
 *
 * @packageDocumentation
 */
export { createMcpToolBundles } from "./mcp-tool-bundles.js";
export type { McpToolBundleOptions, McpToolBundles, McpHostOptions } from "./mcp-tool-bundles.js";
export { McpLoadError, McpConfigError } from "./mcp-errors.js";
export { applyMcpOps, createInMemoryMcpSettingsStore } from "./apply-mcp-ops.js";
export type { McpOp, McpSettingsStore } from "./apply-mcp-ops.js";
export { normalizeMcpServerConfig } from "./settings.js";
export type { McpServerConfig, McpSettings, McpServerConfigInput } from "./settings.js";
export type { McpToolCallDetails } from "./content-mapping.js";
export type { McpManagerInput } from "./mcp-manager-schema.js";
export type { McpManagerDetails } from "./mcp-manager-support.js";
export type { McpOAuthStore } from "./oauth/mcp-oauth-store.js";
export { InMemoryMcpOAuthStore } from "./oauth/in-memory-mcp-oauth-store.js";
export { KyselyMcpOAuthStore } from "./oauth/kysely-mcp-oauth-store.js";
export { mcpTools } from "./mcp-tools-plugin.js";
export type { McpToolsPlugin } from "./mcp-tools-plugin.js";
