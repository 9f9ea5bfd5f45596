/**
 * @agent-tools/sdk: `buildBuiltinToolRegistry()` with every built-in bundle on
 * Node defaults, plus the core entry points a host needs next to it.
 *
 * @packageDocumentation
 */
export { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
export type { BuiltinToolRegistryOptions } from "./build-builtin-tool-registry.js";
export {
  createToolRegistry,
  defineTool,
  ToolError,
  SdkError,
  toOpenAITools,
  toAnthropicTools,
  toAiSdkTools,
  OpenAICompatibleModelClient,
  ScriptedModelClient,
} from "@agent-tools/core";
export type {
  ToolRegistry,
  ToolRegistryOptions,
  ToolCall,
  ToolResult,
  ToolContent,
  ToolSchema,
  ToolMetadata,
  ToolEvent,
  ExecuteToolCallOptions,
  ApprovalOptions,
  AdditionalRoot,
  RuntimeScope,
  ModelClient,
} from "@agent-tools/core";
