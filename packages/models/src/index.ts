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
export { AiSdkModelClient } from "./ai-sdk-model-client.js";
export type { AiSdkModelClientOptions } from "./ai-sdk-model-client.js";
export type { AiSdkLanguageModel } from "./ai-sdk-language-model.js";
