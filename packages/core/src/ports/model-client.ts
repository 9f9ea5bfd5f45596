/**
 * ModelClient: what subagents, prompt-type cron tasks, memory extraction and
 * example hosts use to talk to a model.
 */
import type { ToolSchema } from "../types.js";

/** A tool call requested by the model. */
export interface ModelToolCall {
  id: string;
  name: string;
  /** The raw JSON text of the arguments, exactly as the model sent it (may be malformed). */
  arguments: string;
}

/** One message of a conversation. */
export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ModelToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError?: boolean };

/** A request to the model. */
export interface ModelRequest {
  messages: readonly ModelMessage[];
  tools?: readonly ToolSchema[];
  signal?: AbortSignal;
  /** Called with text as it streams in, when the adapter streams. */
  onTextDelta?(text: string): void;
}

/** The model's answer. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: "stop" | "tool-calls" | "length" | "error" | "other";
  usage?: { inputTokens?: number; outputTokens?: number };
}

/** A model: messages and tool schemas in, text and tool calls out. */
export interface ModelClient {
  /** A label for logs and UIs, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** One assistant turn. Rejects with an AbortError when `signal` aborts. */
  generate(request: ModelRequest): Promise<ModelResponse>;
}
