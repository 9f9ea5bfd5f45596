/**
 * @agent-tools/sdk: `buildBuiltinToolRegistry()` with every built-in bundle on
 * Node defaults, `createNodePorts()` (the Node adapters of every port), a
 * `createToolRegistry` that fills in those defaults, and the core entry
 * points a host needs next to it.
 *
 * @packageDocumentation
 */
export { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
export type { BuiltinToolRegistryOptions } from "./build-builtin-tool-registry.js";
export type { SdkSubagentOptions } from "./subagent-wiring.js";
export type { SdkSkillOptions } from "./skill-wiring.js";
export type { SdkCronOptions } from "./cron-wiring.js";
export type { SdkSandboxOptions } from "./sandbox-wiring.js";
export type { SdkSshOptions } from "./ssh-options.js";
export { workdirTaskListKey } from "./task-wiring.js";
export { openFileCheckpoints } from "./checkpoint-wiring.js";
export type { OpenedFileCheckpoints, SdkCheckpointOptions } from "./checkpoint-wiring.js";
export { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";
export type { BuiltinCronSchedulerOptions } from "./start-builtin-cron-scheduler.js";
export type {
  BuiltinToolMap,
  BuiltinToolName,
  BuiltinToolInput,
  BuiltinToolDetails,
  BuiltinToolResult,
  BuiltinToolCall,
  BuiltinToolRegistry,
} from "./builtin-tool-types.js";
export { createToolRegistry } from "./create-tool-registry.js";
export { BUILTIN_TOOL_CONCURRENCY } from "./tool-concurrency-defaults.js";
export { BUILTIN_TOOL_NAMES } from "./approval-wiring.js";
export type {
  SdkInteractionOptions,
  AskUserQuestionRequest,
  AskUserQuestionResponse,
  ExitPlanModeRequest,
  ExitPlanModeResponse,
} from "./interaction-tools/index.js";
export { createNodePorts } from "./create-node-ports.js";
export {
  defineTool,
  ToolError,
  SdkError,
  toOpenAITools,
  toOpenAIResponsesTools,
  toAnthropicTools,
  toAiSdkTools,
  toolResultText,
} from "@agent-tools/core";
export type {
  ToolRegistry,
  ToolResult,
  ApprovalOptions,
  ModelClient,
} from "@agent-tools/core";
export { SYSTEM_TOOL_IDS } from "./system-tools/system-tools.js";
export type { SystemToolId } from "./system-tools/system-tools.js";
export type { ToolDefinition, ToolBundle } from "@agent-tools/core";
export { buildToolRegistry } from "./build-tool-registry.js";
export type { ToolRegistryBuildOptions } from "./build-tool-registry.js";
export { builtinToolPlugins } from "./plugins/builtin-tool-plugins.js";
export { createResourceHub } from "@agent-tools/core";
export type { ResourceHub, ToolPlugin } from "@agent-tools/core";
