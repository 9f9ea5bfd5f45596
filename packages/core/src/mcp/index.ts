/**
 * `@agent-tools/core/mcp`: the contracts of MCP as a host meets them (the
 * `mcp` options of `buildBuiltinToolRegistry`, the settings and their ops,
 * the OAuth store port, McpManager's arguments and details, the load
 * errors). No MCP client here: `@agent-tools/mcp` implements them and
 * re-exports these names, so hosts import them from there. They live here
 * so that the sdk's declarations type-check without `@agent-tools/mcp`.
 *
 * @packageDocumentation
 */
export type {
  McpElicitationField,
  McpElicitationSchema,
  McpElicitationValue,
  McpElicitationRequest,
  McpElicitationResult,
  McpSamplingRequest,
  McpSamplingOptions,
  McpRoot,
  McpRootsSource,
} from "./mcp-client-feature-types.js";
export { McpLoadError, McpConfigError } from "./mcp-errors.js";
export type { McpLoadFailure, McpLoadReport, McpLoadErrorDetails, McpConfigProblem } from "./mcp-errors.js";
export type {
  McpManifest,
  McpManifestStore,
  McpManifestTool,
  McpServerLifecycleState,
  McpServerLifecycle,
  McpPromptArgument,
  McpPromptInfo,
  McpPromptResult,
  McpResourceUpdate,
  McpUrlElicitationRequest,
  McpUrlElicitationResult,
} from "./mcp-lifecycle-types.js";
export type { McpHostOptions, McpHostBundles, McpToolTarget } from "./mcp-host-options.js";
export type { McpManagerAction, McpManagerInput, McpManagerServerInput, McpManagerDetails } from "./mcp-manager-types.js";
export type {
  McpAuthorizationCallback,
  McpAuthorizationRequest,
  McpAuthorizationResult,
  McpOAuthClientMetadata,
  McpOAuthOptions,
  McpOAuthStore,
  McpOAuthStoreKey,
} from "./mcp-oauth-types.js";
export type {
  McpOAuthGrant,
  McpOp,
  McpPatchOp,
  McpRemoveOp,
  McpServerAuthConfig,
  McpServerConfig,
  McpServerConfigInput,
  McpSetEnabledOp,
  McpSettings,
  McpTokenEndpointAuthMethod,
  McpTransportKind,
  McpUpsertOp,
} from "./mcp-settings-types.js";
