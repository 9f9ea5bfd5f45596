/**
 * @agent-tools/models/testing: a local chat-completions server for tests of
 * OpenAI-compatible clients. Imports no test runner.
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
