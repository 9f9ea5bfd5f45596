// Testing exports of the model area: list each export by name.
export { createChatCompletionsTestServer } from "../model/testing/chat-completions-test-server.js";
export type {
  ChatCompletionsTestServer,
  ChatCompletionsTestServerOptions,
  ChatCompletionsTestRequest,
  ChatCompletionsTestReply,
} from "../model/testing/chat-completions-test-server.js";
export { runModelClientContract } from "../model/testing/model-client-contract.js";
export type { ModelClientContractTarget, ModelContractTurn, ModelContractInstance } from "../model/testing/model-client-contract.js";
