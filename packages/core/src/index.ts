/**
 * @agent-tools/core: tool definitions, the registry and its central
 * executor, the path policy, approval, the port interfaces, errors and
 * provider formats. No Node adapter lives here: the process runner, git
 * clients, storage and model clients are in `@agent-tools/node`,
 * `@agent-tools/git`, `@agent-tools/storage` and `@agent-tools/models`;
 * fakes are at `@agent-tools/core/testing`. Helpers the workspace packages
 * share (no semver promise) are at `@agent-tools/core/internal`.
 *
 * @packageDocumentation
 */
export { TOOL_ERROR_CODES, ToolError, SdkError, CodedError, isAbortError } from "./errors.js";
export type { ToolErrorCode, SdkErrorCode } from "./errors.js";
export { TOOL_KINDS } from "./types.js";
export { resolveToolAnnotations } from "./registry/tool-annotations.js";
export type {
  RuntimeScope,
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
  ToolSchema,
} from "./types.js";

export { defineTool } from "./registry/define-tool.js";
export type { DefineToolSpec } from "./registry/define-tool.js";
export { createToolRegistry } from "./registry/create-tool-registry.js";
export type { ToolRegistry, ToolRegistryOptions } from "./registry/create-tool-registry.js";
export type { ToolConcurrencyOptions } from "./registry/tool-call-scheduler.js";
export type { ExecuteToolCallOptions } from "./registry/execute-tool-call.js";
export { errorResult } from "./registry/execute-tool-call.js";
export { traceChildSpan } from "./telemetry/tool-call-span.js";
export type {
  ToolTelemetryOptions,
  TelemetryTracer,
  TelemetrySpan,
  TelemetryAttributeValue,
  ChildSpanOptions,
} from "./telemetry/tool-call-span.js";
export type { ToolEvent } from "./registry/events.js";
export type { ApprovalDecision, ApprovalOptions, ApprovalRequest } from "./registry/approval-policy.js";

export { raceWithAbort } from "./abort.js";
export { toolResultText } from "./tool-result-text.js";
export { createPathPolicy } from "./paths/path-policy.js";
export { resolveDataDir } from "./paths/resolve-data-dir.js";
export type {
  PathPolicy,
  PathIntent,
  ResolvedPath,
  SkillPathOptions,
  SkillAccessDecision,
} from "./paths/path-policy.js";
export type { AdditionalRoot } from "./paths/additional-roots.js";

export type { ProcessRunner, RunningProcess, SpawnOptions, ProcessOutputChunk, ProcessExit, KillOptions } from "./ports/process-runner.js";
export type { ProgramExit, ProgramRun, ProgramRunOptions, ProgramRunner } from "./ports/program-runner.js";
export type { GitClient } from "./ports/git-client.js";
export type { ModelClient, ModelMessage, ModelRequest, ModelResponse, ModelToolCall } from "./ports/model-client.js";
export type { ToolPorts } from "./ports/tool-ports.js";
export type { CommandSandbox, SandboxPolicy, SandboxSettings, SandboxState } from "./ports/command-sandbox.js";
export type { FileChangeRequest, FileCheckpointRecorder } from "./ports/file-checkpoints.js";

export type { ModelUsage } from "./ports/model-client.js";
export { GitClientError } from "./git/git-client-error.js";
export { ModelClientError } from "./model/model-client-error.js";

export { toOpenAITools } from "./providers/openai-tools.js";
export type { OpenAITool } from "./providers/openai-tools.js";
export { toOpenAIResponsesTools } from "./providers/openai-responses-tools.js";
export type { OpenAIResponsesTool } from "./providers/openai-responses-tools.js";
export { toOpenAIStrictSchema, fromStrictArguments } from "./providers/openai-strict-schema.js";
export { toAnthropicTools } from "./providers/anthropic-tools.js";
export { toAiSdkTools } from "./providers/ai-sdk-tools.js";
export type { AiSdkToolsOptions } from "./providers/ai-sdk-tools.js";
export { composeToolRegistry, SKILL_PATHS_SLOT } from "./plugins/compose-tool-registry.js";
export type { ComposeToolRegistryOptions, ComposedPorts, PortsRequest } from "./plugins/compose-tool-registry.js";
export { definePluginSlot } from "./plugins/tool-plugin.js";
export type {
  ToolPlugin,
  ToolPluginHost,
  ToolPluginChildPolicy,
  ToolPluginOutput,
  PluginSlot,
  RegistryView,
} from "./plugins/tool-plugin.js";
export { createResourceHub } from "./plugins/resource-hub.js";
export { COMMAND_POLICY_SLOT, SANDBOX_MOUNT_SLOT } from "./plugins/standard-slots.js";
export type { CommandCheck, SandboxMountAdditions } from "./plugins/standard-slots.js";
export type { ResourceHub } from "./plugins/resource-hub.js";
