/** The CLI's agent loop and its events, shared with the web example's executing host. */
export { runAgentLoop, planBatches, resultText, defaultSystemPrompt } from "./run-agent-loop.js";
export type { AgentLoopOptions, AgentLoopResult } from "./run-agent-loop.js";
export type * from "./agent-events.js";
