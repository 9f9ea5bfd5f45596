/**
 * @agent-tools/models/testing: the ModelClient contract suite
 * (`runModelClientContract`, on vitest, an optional peer) for hosts to run
 * on their own client, and a local chat-completions server for tests of
 * OpenAI-compatible clients.
 *
 * @packageDocumentation
 */
export { createChatCompletionsTestServer } from "./chat-completions-test-server.js";
export type {
  ChatCompletionsTestServer,
  ChatCompletionsTestServerOptions,
  ChatCompletionsTestRequest,
  ChatCompletionsTestReply,
} from "./chat-completions-test-server.js";
export { runModelClientContract } from "./model-client-contract.js";
export type { ModelClientContractTarget, ModelContractTurn, ModelContractInstance } from "./model-client-contract.js";
