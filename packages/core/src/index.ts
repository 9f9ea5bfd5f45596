/**
 * @agent-tools/core: tool definitions, the registry and its central
 * executor, the path policy, approval, the port interfaces, errors and
 * provider formats. No Node adapter lives here: the process runner, git
 * clients, storage and model clients are in `@agent-tools/node`,
 * `@agent-tools/git`, `@agent-tools/storage` and `@agent-tools/models`;
 * fakes are at `@agent-tools/core/testing`.
 *
 * @packageDocumentation
 */
export { TOOL_ERROR_CODES, ToolError, SdkError, CodedError, isAbortError } from "./errors.js";
export type { ToolErrorCode, ToolErrorOptions, SdkErrorCode } from "./errors.js";
export { RUNTIME_SCOPES, TOOL_GROUP_IDS, TOOL_KINDS } from "./types.js";
export { resolveToolAnnotations, defaultToolAnnotations, TOOL_ANNOTATION_KEYS } from "./registry/tool-annotations.js";
export { isModuleNotFoundError } from "./optional-package.js";
export type {
  RuntimeScope,
  ToolGroupId,
  ToolDisplayCategory,
  ToolMetadata,
  ToolKind,
  ToolAnnotations,
  JsonSchemaObject,
  TextContent,
  ImageContent,
  ToolContent,
  ToolResult,
  ToolResultError,
  ToolOutput,
  ToolCall,
  ToolUpdate,
  Logger,
  ToolContext,
  ToolDefinition,
  ToolBundle,
  BundleApprovalTargets,
  ToolSchema,
} from "./types.js";

export { defineTool, TOOL_NAME_PATTERN } from "./registry/define-tool.js";
export type { DefineToolSpec } from "./registry/define-tool.js";
export { toToolJsonSchema, coerceInputSchema } from "./registry/json-schema.js";
export { quotePatchPath, readPatchPath, stripPatchPrefix } from "./ports/git-patch-paths.js";
export { createToolRegistry } from "./registry/create-tool-registry.js";
export type { ToolRegistry, ToolRegistryOptions } from "./registry/create-tool-registry.js";
export type { ToolConcurrencyOptions } from "./registry/tool-call-scheduler.js";
export type { ExecuteToolCallOptions } from "./registry/execute-tool-call.js";
export { errorResult } from "./registry/execute-tool-call.js";
export { TOOL_SPAN_ATTRIBUTES, traceChildSpan } from "./telemetry/tool-call-span.js";
export type {
  ToolTelemetryOptions,
  TelemetryTracer,
  TelemetrySpan,
  TelemetryAttributeValue,
  ToolCallTelemetry,
  ChildSpanOptions,
} from "./telemetry/tool-call-span.js";
export type { ToolEvent, ToolCallStartEvent, ToolOutputDeltaEvent, ToolCallEndEvent } from "./registry/events.js";
export { resolveApproval, APPROVAL_DECISIONS } from "./registry/approval-policy.js";
export { closestName } from "./registry/closest-name.js";
export { snapshotApprovalOptions } from "./registry/approval-validation.js";
export type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "./registry/approval-policy.js";
export { LoopBreaker } from "./registry/loop-breaker.js";
export { capOutput, DEFAULT_MAX_OUTPUT_CHARS } from "./registry/output-cap.js";

export { quoteForMessage, shortenForMessage, previewForMessage, DEFAULT_QUOTE_CHARS } from "./quote.js";
export { raceWithAbort, raceAbortError, abortReason, abortErrorFor, throwIfAborted } from "./abort.js";
export { toolResultText } from "./tool-result-text.js";
export { createPathPolicy, expandHome } from "./paths/path-policy.js";
export { resolveDataDir, DEFAULT_DATA_DIR_NAME } from "./paths/resolve-data-dir.js";
export type {
  PathPolicy,
  PathPolicyOptions,
  PathIntent,
  PathScope,
  ResolvePathOptions,
  ResolvedPath,
  RootInfo,
  SkillPathOptions,
  SkillAccessDecision,
} from "./paths/path-policy.js";
export { parsePathInput } from "./paths/parse-path-input.js";
export type { ParsedPathInput } from "./paths/parse-path-input.js";
export { validateAdditionalRoots, rootStatus } from "./paths/additional-roots.js";
export type { AdditionalRoot, GrantedRoot, RootAccess, RootStatus } from "./paths/additional-roots.js";
export { isWithin, canonicalizeTarget, tryRealpath } from "./paths/containment.js";

export type { ProcessRunner, RunningProcess, SpawnOptions, ProcessOutputChunk, ProcessExit, KillOptions } from "./ports/process-runner.js";
export type { ProgramExit, ProgramRun, ProgramRunOptions, ProgramRunner } from "./ports/program-runner.js";
export type { GitClient, GitOptions, GitWorktree, GitStatusEntry } from "./ports/git-client.js";
export type { ModelClient, ModelMessage, ModelReasoningLevel, ModelRequest, ModelResponse, ModelToolCall } from "./ports/model-client.js";
export type { ToolPorts } from "./ports/tool-ports.js";
export type { CommandSandbox, SandboxEnvironmentSettings, SandboxPolicy, SandboxSettings, SandboxState } from "./ports/command-sandbox.js";
export type { FileChangeRequest, FileCheckpointRecorder } from "./ports/file-checkpoints.js";

export type { GitAuthor } from "./ports/git-client.js";
export type { GitWorktreeChange, GitWorktreeExclusion, GitWorktreeExclusionReason, GitWorktreeSnapshot } from "./ports/git-client.js";
export type { ModelToolChoice, ModelFinishReason, ModelUsage } from "./ports/model-client.js";
export { GitClientError } from "./git/git-client-error.js";
export { GIT_LOCATING_VARIABLES, HOST_GIT_SAFETY_ENVIRONMENT, gitConfigEnvironment } from "./git/host-git-environment.js";
export type { GitClientErrorCode, GitClientErrorData } from "./git/git-client-error.js";
export { ModelClientError } from "./model/model-client-error.js";
export type { ModelClientErrorCode, ModelClientErrorData } from "./model/model-client-error.js";

export { toOpenAITools } from "./providers/openai-tools.js";
export type { OpenAITool } from "./providers/openai-tools.js";
export type { OpenAIToolsOptions } from "./providers/openai-tools.js";
export { toOpenAIResponsesTools } from "./providers/openai-responses-tools.js";
export type { OpenAIResponsesTool } from "./providers/openai-responses-tools.js";
export { toOpenAIStrictSchema, fromStrictArguments, OPENAI_STRICT_STRING_FORMATS, OPENAI_STRICT_LIMITS } from "./providers/openai-strict-schema.js";
export { toAnthropicTools } from "./providers/anthropic-tools.js";
export type { AnthropicTool, AnthropicToolsOptions } from "./providers/anthropic-tools.js";
export { toAiSdkTools, toAiSdkJsonSchema, AI_SDK_SCHEMA_SYMBOL } from "./providers/ai-sdk-tools.js";
export type {
  AiSdkTool,
  AiSdkToolsOptions,
  AiSdkToolSource,
  AiSdkJsonSchema,
  AiSdkToolExecutionOptions,
  AiSdkModelOutputArgument,
} from "./providers/ai-sdk-tools.js";
export { toAiSdkToolResultOutput } from "./providers/ai-sdk-tool-output.js";
export type {
  AiSdkToolResultOutput,
  AiSdkMajorVersion,
  AiSdkTextPart,
  AiSdkFilePart,
  AiSdk5MediaPart,
  AiSdk6FileDataPart,
  AiSdk7FilePart,
} from "./providers/ai-sdk-tool-output.js";
export { streamToolCallResults } from "./providers/ai-sdk-preliminary.js";
export { selectProviderTools, inputSchemaProblem, OPENAI_TOOL_NAME_PATTERN, ANTHROPIC_TOOL_NAME_PATTERN } from "./providers/provider-tool-rules.js";
export type { ProviderToolsOptions, ProviderToolRules, ToolSchemaSource, ToolSchemaInput } from "./providers/provider-tool-rules.js";
export { composeToolRegistry, SKILL_PATHS_SLOT } from "./plugins/compose-tool-registry.js";
export type { ComposeToolRegistryOptions, ComposedPorts, PortsRequest } from "./plugins/compose-tool-registry.js";
export { definePluginSlot, TOOL_PLUGIN_CHILD_POLICIES } from "./plugins/tool-plugin.js";
export type {
  ToolPlugin,
  ToolPluginHost,
  ToolPluginChildPolicy,
  ToolPluginOutput,
  PluginSlot,
  RegistryView,
  ChildRegistryRequest,
} from "./plugins/tool-plugin.js";
export { createResourceHub } from "./plugins/resource-hub.js";
export { COMMAND_POLICY_SLOT, SANDBOX_MOUNT_SLOT } from "./plugins/standard-slots.js";
export type { CommandCheck, CommandCheckRequest, SandboxMountAdditions } from "./plugins/standard-slots.js";
export type { ResourceHub } from "./plugins/resource-hub.js";
