/**
 * The subset of the Vercel AI SDK provider specification (`LanguageModelV2`
 * and `LanguageModelV3` from `@ai-sdk/provider`) that {@link AiSdkModelClient}
 * uses, typed structurally so that core does not depend on `ai`.
 */

/** A JSON value, as provider options carry them. */
export type AiSdkJsonValue = null | string | number | boolean | AiSdkJsonValue[] | { [key: string]: AiSdkJsonValue | undefined };

/** Provider-specific options keyed by provider name, e.g. `{ openai: { parallelToolCalls: false } }`. */
export type AiSdkProviderOptions = Record<string, { [key: string]: AiSdkJsonValue | undefined }>;

/** A part of an AI SDK prompt message. */
export type AiSdkPromptPart =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown }
  | {
      type: "tool-result";
      toolCallId: string;
      toolName: string;
      output: { type: "text"; value: string } | { type: "error-text"; value: string };
    };

/** An AI SDK prompt message. */
export type AiSdkPromptMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: Array<{ type: "text"; text: string }> }
  | { role: "assistant"; content: Array<Extract<AiSdkPromptPart, { type: "text" | "tool-call" }>> }
  | { role: "tool"; content: Array<Extract<AiSdkPromptPart, { type: "tool-result" }>> };

/** An AI SDK function tool (`LanguageModelV3FunctionTool`). */
export interface AiSdkFunctionTool {
  type: "function";
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/** The call options the client sends (`LanguageModelV3CallOptions` subset). */
export interface AiSdkCallOptions {
  prompt: AiSdkPromptMessage[];
  tools?: AiSdkFunctionTool[];
  toolChoice?: { type: "auto" } | { type: "none" } | { type: "required" };
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
  providerOptions?: AiSdkProviderOptions;
}

/** A finish reason: a string (V2) or `{ unified, raw }` (V3). */
export type AiSdkFinishReason = string | { unified: string; raw?: string };

/** A token count: a number (V2) or `{ total }` (V3). */
export type AiSdkTokenCount = number | { total?: number } | undefined;

/** Usage as V2 and V3 report it. */
export interface AiSdkUsage {
  inputTokens?: AiSdkTokenCount;
  outputTokens?: AiSdkTokenCount;
}

/** A content part of a generate result, or a stream part: only the fields the client reads. */
export interface AiSdkResultPart {
  type: string;
  /** `text` parts. */
  text?: string;
  /** `text-delta` and `tool-input-delta` parts. */
  delta?: string;
  /** Stream parts' id (`tool-input-*`: the tool call id). */
  id?: string;
  toolCallId?: string;
  toolName?: string;
  /** `tool-call` parts: the JSON text of the arguments. */
  input?: unknown;
  /** True for tools the provider ran itself; the client leaves those out. */
  providerExecuted?: boolean;
  /** `finish` stream parts. */
  finishReason?: AiSdkFinishReason;
  usage?: AiSdkUsage;
  /** `error` stream parts. */
  error?: unknown;
}

/** What `doGenerate` resolves with. */
export interface AiSdkGenerateResult {
  content: AiSdkResultPart[];
  finishReason: AiSdkFinishReason;
  usage?: AiSdkUsage;
}

/** What `doStream` resolves with. */
export interface AiSdkStreamResult {
  stream: ReadableStream<AiSdkResultPart>;
}

/**
 * A Vercel AI SDK `LanguageModel` (V2 or V3 specification), e.g.
 * `openai("gpt-4o-mini")` from `@ai-sdk/openai` or `MockLanguageModelV3`
 * from `ai/test`.
 */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: AiSdkCallOptions): PromiseLike<AiSdkGenerateResult>;
  doStream(options: AiSdkCallOptions): PromiseLike<AiSdkStreamResult>;
}
