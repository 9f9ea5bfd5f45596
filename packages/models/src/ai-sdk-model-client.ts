import { SdkError } from "@agent-tools/core";
import type { ModelClient, ModelMessage, ModelRequest, ModelResponse, ModelToolCall, ModelUsage } from "@agent-tools/core";
import { abortErrorFor, raceAbortError as raceAbort, throwIfAborted } from "@agent-tools/core/internal";
import { normaliseFinishReason } from "./finish-reason.js";
import type {
  AiSdkProviderOptions,
  AiSdkCallOptions,
  AiSdkFinishReason,
  AiSdkLanguageModel,
  AiSdkPromptMessage,
  AiSdkTokenCount,
  AiSdkUsage,
} from "./ai-sdk-language-model.js";
import { ModelClientError } from "@agent-tools/core";

/** Options of {@link AiSdkModelClient}. */
export interface AiSdkModelClientOptions {
  /** `true` uses `doStream`, `false` `doGenerate`; `auto` (default) streams when the request has an `onTextDelta` listener. */
  stream?: boolean | "auto";
  /** Passed to the provider as `providerOptions` on every call. */
  providerOptions?: AiSdkProviderOptions;
  /** Default `<provider>:<modelId>`. */
  id?: string;
}

/** Converts the port's messages into an AI SDK prompt. Tool-call arguments are parsed when they are JSON, else passed as the raw text. */
export function toAiSdkPrompt(messages: readonly ModelMessage[]): AiSdkPromptMessage[] {
  return messages.map((message): AiSdkPromptMessage => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: [{ type: "text", text: message.content }] };
      case "assistant": {
        const content: Extract<AiSdkPromptMessage, { role: "assistant" }>["content"] = [];
        if (message.content !== "") content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: parseOrRaw(call.arguments) });
        }
        return { role: "assistant", content };
      }
      case "tool":
        return {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: message.isError ? { type: "error-text", value: message.content } : { type: "text", value: message.content },
            },
          ],
        };
    }
  });
}

function parseOrRaw(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function count(value: AiSdkTokenCount): number | undefined {
  if (typeof value === "number") return value;
  if (value && typeof value === "object" && typeof value.total === "number") return value.total;
  return undefined;
}

function readUsage(usage: AiSdkUsage | undefined): ModelUsage | undefined {
  if (!usage) return undefined;
  const inputTokens = count(usage.inputTokens);
  const outputTokens = count(usage.outputTokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { ...(inputTokens !== undefined ? { inputTokens } : {}), ...(outputTokens !== undefined ? { outputTokens } : {}) };
}

function finishText(reason: AiSdkFinishReason | undefined): string | undefined {
  if (reason === undefined) return undefined;
  return typeof reason === "string" ? reason : reason.unified;
}

function inputText(input: unknown): string {
  if (typeof input === "string") return input;
  if (input === undefined || input === null) return "";
  return JSON.stringify(input);
}

/**
 * A {@link ModelClient} over a Vercel AI SDK `LanguageModel` (specification
 * V2 or V3): any AI SDK provider (OpenAI, Anthropic, Google, Ollama, ...)
 * becomes a ModelClient. Tools the provider executed itself are left out of
 * `toolCalls`.
 *
 * @example
 * import { openai } from "@ai-sdk/openai";
 * const model = new AiSdkModelClient(openai("gpt-4o-mini"));
 * const response = await model.generate({ messages, tools: registry.tools });
 */
export class AiSdkModelClient implements ModelClient {
  readonly id: string;
  readonly #model: AiSdkLanguageModel;
  readonly #options: AiSdkModelClientOptions;

  constructor(model: AiSdkLanguageModel, options: AiSdkModelClientOptions = {}) {
    if (!model || typeof model.doGenerate !== "function" || typeof model.doStream !== "function") {
      throw new SdkError("invalid_options", "AiSdkModelClient needs an AI SDK LanguageModel object (with doGenerate and doStream), not a model id string.");
    }
    this.#model = model;
    this.#options = options;
    this.id = options.id ?? `${model.provider}:${model.modelId}`;
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const signal = request.signal;
    throwIfAborted(signal);
    const tools = request.tools ?? [];
    const callOptions: AiSdkCallOptions = {
      prompt: toAiSdkPrompt(request.messages),
      ...(tools.length > 0
        ? {
            tools: tools.map((tool) => ({ type: "function" as const, name: tool.name, description: tool.description, inputSchema: tool.inputSchema })),
            toolChoice: { type: request.toolChoice ?? "auto" },
          }
        : {}),
      ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(signal ? { abortSignal: signal } : {}),
      ...(this.#options.providerOptions ? { providerOptions: this.#options.providerOptions } : {}),
    };
    const streamOption = this.#options.stream ?? "auto";
    const stream = streamOption === "auto" ? request.onTextDelta !== undefined : streamOption;
    try {
      return stream ? await this.#stream(callOptions, request) : await this.#generate(callOptions, signal);
    } catch (error) {
      if (signal?.aborted) throw abortErrorFor(signal);
      throw error;
    }
  }

  async #generate(callOptions: AiSdkCallOptions, signal: AbortSignal | undefined): Promise<ModelResponse> {
    const result = await raceAbort(this.#model.doGenerate(callOptions), signal);
    let text = "";
    const toolCalls: ModelToolCall[] = [];
    for (const part of result.content ?? []) {
      if (part.type === "text" && typeof part.text === "string") text += part.text;
      else if (part.type === "tool-call" && !part.providerExecuted) {
        toolCalls.push({ id: part.toolCallId ?? `call_${toolCalls.length + 1}`, name: part.toolName ?? "", arguments: inputText(part.input) });
      }
    }
    const usage = readUsage(result.usage);
    return { text, toolCalls, finishReason: normaliseFinishReason(finishText(result.finishReason), toolCalls.length > 0), ...(usage ? { usage } : {}) };
  }

  async #stream(callOptions: AiSdkCallOptions, request: ModelRequest): Promise<ModelResponse> {
    const signal = request.signal;
    const { stream } = await raceAbort(this.#model.doStream(callOptions), signal);
    const reader = stream.getReader();
    const onAbort = () => void reader.cancel(abortErrorFor(signal)).catch(() => undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    let text = "";
    const finalCalls: ModelToolCall[] = [];
    const partialCalls = new Map<string, { name: string; arguments: string; providerExecuted: boolean }>();
    let finishReason: AiSdkFinishReason | undefined;
    let usage: ModelUsage | undefined;
    try {
      for (;;) {
        const { done, value: part } = await raceAbort(reader.read(), signal);
        if (done) break;
        switch (part.type) {
          case "text-delta": {
            const delta = part.delta ?? part.text ?? "";
            if (delta !== "") {
              text += delta;
              request.onTextDelta?.(delta);
            }
            break;
          }
          case "tool-input-start":
            partialCalls.set(part.id ?? "", { name: part.toolName ?? "", arguments: "", providerExecuted: part.providerExecuted === true });
            break;
          case "tool-input-delta": {
            const partial = partialCalls.get(part.id ?? "");
            if (partial) partial.arguments += part.delta ?? "";
            break;
          }
          case "tool-call":
            partialCalls.delete(part.toolCallId ?? "");
            if (!part.providerExecuted) {
              finalCalls.push({ id: part.toolCallId ?? `call_${finalCalls.length + 1}`, name: part.toolName ?? "", arguments: inputText(part.input) });
            }
            break;
          case "finish":
            finishReason = part.finishReason;
            usage = readUsage(part.usage);
            break;
          case "error":
            throw new ModelClientError(
              "provider_error",
              `The model provider reported an error mid-stream: ${describe(part.error)}`,
              { clientId: this.id },
              { cause: part.error },
            );
          default:
            break;
        }
      }
    } finally {
      signal?.removeEventListener("abort", onAbort);
      reader.releaseLock();
    }
    // Calls whose input streamed but never got a closing `tool-call` part are kept with the text assembled so far.
    for (const [id, partial] of partialCalls) {
      if (!partial.providerExecuted) finalCalls.push({ id: id || `call_${finalCalls.length + 1}`, name: partial.name, arguments: partial.arguments });
    }
    return { text, toolCalls: finalCalls, finishReason: normaliseFinishReason(finishText(finishReason), finalCalls.length > 0), ...(usage ? { usage } : {}) };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
