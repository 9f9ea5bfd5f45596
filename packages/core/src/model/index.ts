// Public exports of the model area: list each export by name.
export { ScriptedModelClient } from "./scripted-model-client.js";
export type { ScriptedModelClientOptions, ScriptedModelResponse, ScriptedModelStep, ScriptedToolCall } from "./scripted-model-client.js";
export { OpenAICompatibleModelClient } from "./openai-compatible-model-client.js";
export type { OpenAICompatibleModelClientOptions } from "./openai-compatible-model-client.js";
export { AiSdkModelClient, toAiSdkPrompt } from "./ai-sdk-model-client.js";
export type { AiSdkModelClientOptions } from "./ai-sdk-model-client.js";
export type {
  AiSdkLanguageModel,
  AiSdkCallOptions,
  AiSdkPromptMessage,
  AiSdkPromptPart,
  AiSdkFunctionTool,
  AiSdkResultPart,
  AiSdkGenerateResult,
  AiSdkStreamResult,
  AiSdkFinishReason,
  AiSdkTokenCount,
  AiSdkUsage,
  AiSdkJsonValue,
  AiSdkProviderOptions,
} from "./ai-sdk-language-model.js";
export { ModelClientError } from "./model-client-error.js";
export type { ModelClientErrorCode, ModelClientErrorData } from "./model-client-error.js";
export { readServerSentEvents } from "./server-sent-events.js";
export type { ServerSentEvent } from "./server-sent-events.js";
export { toChatCompletionsMessages, toChatCompletionsBody, parseChatCompletion, ChatCompletionsStreamAccumulator } from "./chat-completions-format.js";
export type { ChatCompletionsMessage, ChatCompletionsToolCall } from "./chat-completions-format.js";
export type { ModelToolChoice, ModelFinishReason, ModelUsage } from "../ports/model-client.js";
