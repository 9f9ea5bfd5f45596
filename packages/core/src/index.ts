/**
 * @agent-tools/core: tool definitions, the registry and its central
 * executor, the path policy, ports with their Node adapters, storage helpers
 * and provider formats.
 *
 * @packageDocumentation
 */
export { TOOL_ERROR_CODES, ToolError, SdkError, CodedError, isAbortError } from "./errors.js";
export type { ToolErrorCode, ToolErrorOptions, SdkErrorCode } from "./errors.js";
export { RUNTIME_SCOPES } from "./types.js";
export type {
  RuntimeScope,
  ToolGroupId,
  ToolDisplayCategory,
  ToolMetadata,
  JsonSchemaObject,
  TextContent,
  ImageContent,
  ToolContent,
  ToolResult,
  ToolOutput,
  ToolCall,
  ToolUpdate,
  Logger,
  ToolContext,
  ToolDefinition,
  ToolBundle,
  ToolSchema,
} from "./types.js";

export { defineTool, TOOL_NAME_PATTERN } from "./registry/define-tool.js";
export type { DefineToolSpec } from "./registry/define-tool.js";
export { toToolJsonSchema, coerceInputSchema } from "./registry/json-schema.js";
export { createToolRegistry } from "./registry/create-tool-registry.js";
export type { ToolRegistry, ToolRegistryOptions } from "./registry/create-tool-registry.js";
export type { ExecuteToolCallOptions } from "./registry/execute-tool-call.js";
export { errorResult } from "./registry/execute-tool-call.js";
export type { ToolEvent, ToolCallStartEvent, ToolOutputDeltaEvent, ToolCallEndEvent } from "./registry/events.js";
export { resolveApproval } from "./registry/approval-policy.js";
export type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "./registry/approval-policy.js";
export { LoopBreaker } from "./registry/loop-breaker.js";
export { capOutput, DEFAULT_MAX_OUTPUT_CHARS } from "./registry/output-cap.js";

export { quoteForMessage, shortenForMessage, previewForMessage, DEFAULT_QUOTE_CHARS } from "./quote.js";
export { raceWithAbort, abortReason } from "./abort.js";
export { toolResultText } from "./tool-result-text.js";
export { createPathPolicy, expandHome } from "./paths/path-policy.js";
export type { PathPolicy, PathPolicyOptions, PathIntent, PathScope, ResolvePathOptions, ResolvedPath, RootInfo, SkillPathOptions, SkillAccessDecision } from "./paths/path-policy.js";
export { parsePathInput } from "./paths/parse-path-input.js";
export type { ParsedPathInput } from "./paths/parse-path-input.js";
export { validateAdditionalRoots, rootStatus } from "./paths/additional-roots.js";
export type { AdditionalRoot, GrantedRoot, RootAccess, RootStatus } from "./paths/additional-roots.js";
export { isWithin, canonicalizeTarget, tryRealpath } from "./paths/containment.js";

export type { ProcessRunner, RunningProcess, SpawnOptions, ProcessOutputChunk, ProcessExit, KillOptions } from "./ports/process-runner.js";
export type { GitClient, GitOptions, GitWorktree, GitStatusEntry } from "./ports/git-client.js";
export type { ModelClient, ModelMessage, ModelRequest, ModelResponse, ModelToolCall } from "./ports/model-client.js";
export type { ToolPorts } from "./ports/tool-ports.js";

export * from "./process/index.js";
export * from "./git/index.js";
export * from "./model/index.js";
export * from "./storage/index.js";
export * from "./providers/index.js";
