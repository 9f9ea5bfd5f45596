// Public exports of the providers area: list each export by name.
export { toOpenAITools } from "./openai-tools.js";
export type { OpenAITool } from "./openai-tools.js";
export { toAnthropicTools } from "./anthropic-tools.js";
export type { AnthropicTool, AnthropicToolsOptions } from "./anthropic-tools.js";
export { toAiSdkTools, toAiSdkJsonSchema, toAiSdkToolResultOutput, AI_SDK_SCHEMA_SYMBOL } from "./ai-sdk-tools.js";
export type { AiSdkTool, AiSdkToolsOptions, AiSdkToolSource, AiSdkJsonSchema, AiSdkToolResultOutput, AiSdkToolExecutionOptions } from "./ai-sdk-tools.js";
export { selectProviderTools, inputSchemaProblem, OPENAI_TOOL_NAME_PATTERN, ANTHROPIC_TOOL_NAME_PATTERN } from "./provider-tool-rules.js";
export type { ProviderToolsOptions, ProviderToolRules, ToolSchemaSource } from "./provider-tool-rules.js";
