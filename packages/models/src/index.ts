/**
 * @agent-tools/models: adapters of the ModelClient port.
 * `OpenAICompatibleModelClient` speaks chat completions over fetch;
 * `AiSdkModelClient` wraps any Vercel AI SDK `LanguageModel` (typed
 * structurally: no dependency on `ai`). A local chat-completions test server
 * is at `@agent-tools/models/testing`.
 *
 * @packageDocumentation
 */
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
export { readServerSentEvents } from "./server-sent-events.js";
export type { ServerSentEvent } from "./server-sent-events.js";
export { toChatCompletionsMessages, toChatCompletionsBody, parseChatCompletion, ChatCompletionsStreamAccumulator } from "./chat-completions-format.js";
export type { ChatCompletionsMessage, ChatCompletionsToolCall } from "./chat-completions-format.js";
