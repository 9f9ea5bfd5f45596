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
export type { McpClientFeatureOptions } from "./mcp-client-features.js";
export type {
  McpElicitationRequest,
  McpElicitationResult,
  McpElicitationSchema,
  McpElicitationField,
  McpElicitationValue,
  McpSamplingOptions,
  McpSamplingRequest,
  McpRoot,
} from "./client-features/client-feature-types.js";
export { McpLoadError, McpConfigError } from "./mcp-errors.js";
export type { McpLoadReport, McpLoadFailure, McpLoadErrorDetails, McpConfigProblem } from "./mcp-errors.js";
export { applyMcpOps, createInMemoryMcpSettingsStore } from "./apply-mcp-ops.js";
export type { McpOp, McpUpsertOp, McpPatchOp, McpRemoveOp, McpSetEnabledOp, McpSettingsStore } from "./apply-mcp-ops.js";
export { MCP_TRANSPORTS, DEFAULT_MCP_TIMEOUT_MS, emptyMcpSettings, normalizeMcpServerConfig, validateMcpServerConfig } from "./settings.js";
export type { McpTransportKind, McpServerConfig, McpSettings, McpServerConfigInput, McpValidation } from "./settings.js";
export { buildMcpToolName } from "./tool-naming.js";
export type { McpDynamicToolBundle, McpToolTarget, McpToolEntry } from "./dynamic-tools.js";
export type { McpToolCallDetails } from "./content-mapping.js";
export { coerceMcpInputSchema } from "./remote-tool-schema.js";
export type { CoercedMcpInputSchema } from "./remote-tool-schema.js";
export { MCP_STDIO_MAX_MESSAGE_BYTES } from "./message-size-limit.js";
export type { McpServerConnection } from "./server-connection.js";
export type { McpRemoteTool, McpConnectionState, McpProgress } from "./mcp-remote-types.js";
export type { McpRuntime, McpRuntimeStatus } from "./mcp-runtime.js";
export { createMcpManagerTool } from "./mcp-manager-tool.js";
export type { McpManagerInput } from "./mcp-manager-schema.js";
export { MCP_MANAGER_ACTIONS } from "./mcp-manager-support.js";
export type { McpManagerAction, McpManagerDetails, McpManagerEnvironment } from "./mcp-manager-support.js";
export { createToolSearchTool, DEFAULT_TOOL_SEARCH_TOKEN_BUDGET } from "./tool-search.js";
export type { McpOAuthHostOptions, McpOAuthOptions } from "./mcp-oauth-options.js";
export { DEFAULT_MCP_OAUTH_REDIRECT_URL } from "./oauth/mcp-oauth-source.js";
export type { McpOAuthStatus } from "./oauth/mcp-oauth-source.js";
export type { McpAuthorizationCallback, McpAuthorizationRequest, McpAuthorizationResult } from "./oauth/authorization-callback.js";
export type { McpOAuthStore, McpOAuthStoreKey } from "./oauth/mcp-oauth-store.js";
export { InMemoryMcpOAuthStore } from "./oauth/in-memory-mcp-oauth-store.js";
export { KyselyMcpOAuthStore, MCP_OAUTH_STORAGE_MIGRATIONS, MCP_OAUTH_STORAGE_NAMESPACE, MCP_OAUTH_TABLE } from "./oauth/kysely-mcp-oauth-store.js";
export { MCP_TOKEN_ENDPOINT_AUTH_METHODS } from "./oauth/mcp-server-auth-config.js";
export type { McpServerAuthConfig, McpTokenEndpointAuthMethod } from "./oauth/mcp-server-auth-config.js";
export type { ToolSearchHit, ToolSearchState } from "./tool-search.js";
