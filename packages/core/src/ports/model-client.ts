/**
 * ModelClient: what subagents, prompt-type cron tasks, memory extraction and
 * example hosts use to talk to a model.
 *
 * Contract of every adapter:
 * - `generate` runs exactly one assistant turn: it sends the whole
 *   conversation and the tool schemas, and resolves with the assistant's text
 *   and the tool calls it requested. It never runs tools itself.
 * - Tool-call arguments come back as the raw JSON text the model produced,
 *   never parsed or repaired: malformed JSON is passed through so that the
 *   registry's executor can tell the model what was wrong.
 * - When the adapter streams, `onTextDelta` receives the text in arrival
 *   order; the concatenation of every delta equals `ModelResponse.text`.
 * - When `signal` aborts (before or during the call) the promise rejects with
 *   an error whose `name` is `AbortError` (see `isAbortError`), and the
 *   underlying request is cancelled.
 * - Transport and provider failures reject with a `ModelClientError` (from
 *   `@agent-tools/core`) whose `code` says what kind of failure it was and
 *   whose message names the HTTP status and the provider's own message.
 */
import type { ToolSchema } from "../tool-schema.js";

/** A tool call requested by the model. */
export interface ModelToolCall {
  /** The provider's call id; adapters invent a stable one when the provider sends none. */
  id: string;
  /** The tool name exactly as the model sent it. */
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

/** Whether and how the model may call tools. Default `auto`. */
export type ModelToolChoice = "auto" | "none" | "required";

/** Reasoning effort levels, least to most. */
export type ModelReasoningLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** A request to the model. */
export interface ModelRequest {
  /** The conversation so far, oldest first. */
  messages: readonly ModelMessage[];
  /** Tools the model may call (e.g. `registry.tools`). */
  tools?: readonly ToolSchema[];
  /** Default `auto`; ignored when `tools` is empty. */
  toolChoice?: ModelToolChoice;
  /** Upper bound of generated tokens; default: the provider's. */
  maxOutputTokens?: number;
  /** Sampling temperature; default: the provider's. */
  temperature?: number;
  /**
   * How much a reasoning model should think (cron prompt tasks ask for
   * `medium`); default: the provider's. An adapter maps it to its
   * provider's setting where it has one and ignores it otherwise.
   */
  reasoning?: ModelReasoningLevel;
  /** Aborts the request; `generate` then rejects with an AbortError. */
  signal?: AbortSignal;
  /** Called with text as it streams in, when the adapter streams. */
  onTextDelta?(text: string): void;
}

/** Why the model stopped. */
export type ModelFinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";

/** Token counts, when the provider reports them. */
export interface ModelUsage {
  inputTokens?: number;
  outputTokens?: number;
}

/** The model's answer. */
export interface ModelResponse {
  /** The assistant's text; `""` when it only called tools. */
  text: string;
  /** Tool calls in the order the model made them; empty when none. */
  toolCalls: ModelToolCall[];
  /** `tool-calls` whenever `toolCalls` is non-empty. */
  finishReason: ModelFinishReason;
  usage?: ModelUsage;
}

/**
 * A model: messages and tool schemas in, text and tool calls out.
 *
 * @example
 * const response = await modelClient.generate({
 *   messages: [{ role: "user", content: "List the tasks." }],
 *   tools: registry.tools,
 *   signal,
 * });
 * for (const call of response.toolCalls) await registry.executeToolCall(call);
 */
export interface ModelClient {
  /** A label for logs and UIs, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** One assistant turn. Rejects with an AbortError when `signal` aborts. */
  generate(request: ModelRequest): Promise<ModelResponse>;
}
