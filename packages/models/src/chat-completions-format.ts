/**
 * The OpenAI chat-completions wire format: building request bodies from the
 * port's messages and tools, and reading answers (whole or streamed) back.
 */
import type { ModelMessage, ModelRequest, ModelResponse, ModelToolCall, ModelUsage } from "@agent-tools/core";
import { normaliseFinishReason } from "./finish-reason.js";

/** A chat-completions message as sent on the wire. */
export type ChatCompletionsMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatCompletionsToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** A tool call as it appears in chat-completions messages. */
export interface ChatCompletionsToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** Converts the port's messages into chat-completions messages. */
export function toChatCompletionsMessages(messages: readonly ModelMessage[]): ChatCompletionsMessage[] {
  return messages.map((message): ChatCompletionsMessage => {
    switch (message.role) {
      case "system":
      case "user":
        return { role: message.role, content: message.content };
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) return { role: "assistant", content: message.content };
        return {
          role: "assistant",
          content: message.content === "" ? null : message.content,
          tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
        };
      }
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    }
  });
}

/** Builds the JSON body of a chat-completions request. */
export function toChatCompletionsBody(
  model: string,
  request: ModelRequest,
  options: { stream: boolean; includeUsage: boolean; extraBody?: Record<string, unknown> },
): Record<string, unknown> {
  const body: Record<string, unknown> = { ...options.extraBody, model, messages: toChatCompletionsMessages(request.messages) };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
    if (request.toolChoice) body.tool_choice = request.toolChoice;
  }
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (options.stream) {
    body.stream = true;
    if (options.includeUsage) body.stream_options = { include_usage: true };
  }
  return body;
}

/** Arguments as raw text: strings are kept verbatim; objects (Ollama sends some) are serialised. */
function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "";
  return JSON.stringify(value);
}

function readUsage(usage: unknown): ModelUsage | undefined {
  if (!usage || typeof usage !== "object") return undefined;
  const record = usage as { prompt_tokens?: unknown; completion_tokens?: unknown };
  const result: ModelUsage = {};
  if (typeof record.prompt_tokens === "number") result.inputTokens = record.prompt_tokens;
  if (typeof record.completion_tokens === "number") result.outputTokens = record.completion_tokens;
  return result.inputTokens === undefined && result.outputTokens === undefined ? undefined : result;
}

/** Text of a message `content`: a string, or an array of `{type:"text", text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
      .join("");
  }
  return "";
}

/**
 * Reads a non-streamed chat-completions answer. Returns an error message
 * instead when the JSON is not one.
 */
export function parseChatCompletion(json: unknown): ModelResponse | string {
  if (!json || typeof json !== "object") return "the body is not a JSON object";
  const choices = (json as { choices?: unknown }).choices;
  if (!Array.isArray(choices) || choices.length === 0 || !choices[0] || typeof choices[0] !== "object") return "the body has no choices";
  const choice = choices[0] as { message?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown };
  const message = choice.message ?? {};
  const rawCalls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  const toolCalls: ModelToolCall[] = rawCalls.map((raw: unknown, index: number) => {
    const call = (raw ?? {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    return {
      id: typeof call.id === "string" && call.id !== "" ? call.id : `call_${index + 1}`,
      name: typeof call.function?.name === "string" ? call.function.name : "",
      arguments: argumentsText(call.function?.arguments),
    };
  });
  const usage = readUsage((json as { usage?: unknown }).usage);
  return {
    text: contentText(message.content),
    toolCalls,
    finishReason: normaliseFinishReason(choice.finish_reason ?? undefined, toolCalls.length > 0),
    ...(usage ? { usage } : {}),
  };
}

/** Assembles a streamed answer chunk by chunk: text deltas, tool-call argument deltas by index, finish reason, usage. */
export class ChatCompletionsStreamAccumulator {
  #text = "";
  readonly #calls: { id: string; name: string; arguments: string }[] = [];
  readonly #slotByIndex = new Map<number, number>();
  #finishReason: unknown;
  #usage: ModelUsage | undefined;

  /** Applies one parsed `data:` chunk; returns the text delta it carried (`""` when none). */
  push(chunk: unknown): string {
    if (!chunk || typeof chunk !== "object") return "";
    const usage = readUsage((chunk as { usage?: unknown }).usage);
    if (usage) this.#usage = usage;
    const choices = (chunk as { choices?: unknown }).choices;
    if (!Array.isArray(choices) || choices.length === 0) return "";
    const choice = (choices[0] ?? {}) as { delta?: { content?: unknown; tool_calls?: unknown }; finish_reason?: unknown };
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) this.#finishReason = choice.finish_reason;
    const delta = choice.delta ?? {};
    if (Array.isArray(delta.tool_calls)) {
      for (const raw of delta.tool_calls as unknown[]) this.#pushToolCall(raw);
    }
    const text = contentText(delta.content);
    this.#text += text;
    return text;
  }

  #pushToolCall(raw: unknown): void {
    const part = (raw ?? {}) as { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    let slot: number | undefined;
    if (typeof part.index === "number") {
      slot = this.#slotByIndex.get(part.index);
    } else if (typeof part.id === "string" && part.id !== "") {
      // Servers without `index` (some Ollama versions) send whole calls; match by id.
      const found = this.#calls.findIndex((call) => call.id === part.id);
      slot = found === -1 ? undefined : found;
    } else if (this.#calls.length > 0) {
      slot = this.#calls.length - 1;
    }
    if (slot === undefined) {
      slot = this.#calls.length;
      this.#calls.push({ id: "", name: "", arguments: "" });
      if (typeof part.index === "number") this.#slotByIndex.set(part.index, slot);
    }
    const call = this.#calls[slot]!;
    if (typeof part.id === "string" && part.id !== "" && call.id === "") call.id = part.id;
    const name = part.function?.name;
    // The name normally arrives once; some servers repeat it on every delta, others split it.
    if (typeof name === "string" && name !== call.name) call.name += name;
    if (part.function?.arguments !== undefined) call.arguments += argumentsText(part.function.arguments);
  }

  /** The assembled response. */
  finish(): ModelResponse {
    const toolCalls = this.#calls.map((call, index) => ({ id: call.id || `call_${index + 1}`, name: call.name, arguments: call.arguments }));
    return {
      text: this.#text,
      toolCalls,
      finishReason: normaliseFinishReason(this.#finishReason, toolCalls.length > 0),
      ...(this.#usage ? { usage: this.#usage } : {}),
    };
  }
}
