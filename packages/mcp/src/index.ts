/**
 * @agent-tools/mcp: MCP servers as tools (`mcp_<server>_<tool>`), the
 * McpManager tool, the `applyMcpOps` settings reducer and ToolSearch.
 *
 * @packageDocumentation
 */
export { createMcpToolBundles, McpLoadError } from "./mcp-tool-bundles.js";
export type { McpToolBundleOptions, McpToolBundles, McpLoadReport, McpHostOptions } from "./mcp-tool-bundles.js";
export { applyMcpOps, createInMemoryMcpSettingsStore } from "./apply-mcp-ops.js";
export type { McpOp, McpUpsertOp, McpPatchOp, McpRemoveOp, McpSetEnabledOp, McpSettingsStore } from "./apply-mcp-ops.js";
export {
  MCP_TRANSPORTS,
  DEFAULT_MCP_TIMEOUT_MS,
  McpConfigError,
  emptyMcpSettings,
  normalizeMcpServerConfig,
  selectEnabledMcpServers,
  validateMcpServerConfig,
  assertCompleteMcpServers,
  incompleteReason,
} from "./settings.js";
export type { McpTransportKind, McpServerConfig, McpSettings, McpServerConfigInput, McpValidation } from "./settings.js";
export { buildMcpToolName, sanitizeMcpNamePart, fnv1a32, MCP_NAME_PART_MAX, MCP_TOOL_NAME_MAX } from "./tool-naming.js";
export { createMcpDynamicToolBundle, describeMcpTool } from "./dynamic-tools.js";
export type { McpDynamicToolBundle, McpToolTarget, McpToolEntry, DynamicToolBundleOptions } from "./dynamic-tools.js";
export { mapMcpCallResult, mapMcpContentBlock } from "./content-mapping.js";
export type { McpToolCallDetails } from "./content-mapping.js";
export { McpServerConnection, connectionKey } from "./server-connection.js";
export { coerceMcpInputSchema } from "./remote-tool-schema.js";
export type { CoercedMcpInputSchema } from "./remote-tool-schema.js";
export { MCP_STDIO_MAX_MESSAGE_BYTES } from "./message-size-limit.js";
export type { McpRemoteTool, McpConnectionState, McpProgress, McpConnectionOptions } from "./server-connection.js";
export { McpRuntime } from "./mcp-runtime.js";
export type { McpRuntimeStatus } from "./mcp-runtime.js";
export { createMcpManagerTool, mcpManagerInputSchema } from "./mcp-manager-tool.js";
export type { McpManagerInput } from "./mcp-manager-tool.js";
export { MCP_MANAGER_ACTIONS, redactMcpServerConfig, suggestFixes } from "./mcp-manager-support.js";
export type { McpManagerAction, McpManagerDetails, McpManagerEnvironment } from "./mcp-manager-support.js";
export { createToolSearchTool, scoreToolSearch, estimateToolSchemaTokens, toolSearchInputSchema, DEFAULT_TOOL_SEARCH_TOKEN_BUDGET } from "./tool-search.js";
export type { ToolSearchHit, ToolSearchState } from "./tool-search.js";
export { createLegacySseTransport, SSE_ENDPOINT_WAIT_MS } from "./legacy-sse-transport.js";
