import type { ExecuteToolCallOptions } from "../registry/execute-tool-call.js";
import type { JsonSchemaObject, ToolCall, ToolResult } from "../types.js";
import { OPENAI_TOOL_NAME_PATTERN, type ProviderToolsOptions, type ToolSchemaSource, selectProviderTools } from "./provider-tool-rules.js";

/** The marker the AI SDK's `asSchema()` looks for (`Symbol.for("vercel.ai.schema")`). */
export const AI_SDK_SCHEMA_SYMBOL: unique symbol = Symbol.for("vercel.ai.schema") as never;

/** The shape the AI SDK's `jsonSchema()` returns, typed structurally. `validate` is absent: the registry validates. */
export interface AiSdkJsonSchema {
  readonly [AI_SDK_SCHEMA_SYMBOL]: true;
  readonly _type: unknown;
  readonly jsonSchema: JsonSchemaObject;
  readonly validate: undefined;
}

/** What a tool result becomes for the model (`ToolResultOutput` subset of the AI SDK). */
export type AiSdkToolResultOutput =
  | { type: "text"; value: string }
  | { type: "error-text"; value: string }
  | { type: "content"; value: Array<{ type: "text"; text: string } | { type: "image-data"; data: string; mediaType: string }> };

/** The options the AI SDK passes to `execute` (subset). */
export interface AiSdkToolExecutionOptions {
  toolCallId: string;
  abortSignal?: AbortSignal;
}

/** A tool object the AI SDK accepts in `generateText({ tools })` / `streamText({ tools })`. */
export interface AiSdkTool<Schema = AiSdkJsonSchema> {
  description: string;
  inputSchema: Schema;
  /** Runs the call through `registry.executeToolCall`; never throws for a tool failure. */
  execute(input: unknown, options: AiSdkToolExecutionOptions): Promise<ToolResult>;
  /** Turns the registry's result into what the model sees: its content, as `error-text` when `isError`. */
  toModelOutput(options: { toolCallId: string; input: unknown; output: ToolResult }): AiSdkToolResultOutput;
}

/** What {@link toAiSdkTools} needs of a registry. */
export interface AiSdkToolSource extends ToolSchemaSource {
  executeToolCall(call: ToolCall, options?: ExecuteToolCallOptions): Promise<ToolResult>;
}

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions<Schema = AiSdkJsonSchema> extends ProviderToolsOptions {
  /**
   * The AI SDK's own `jsonSchema` function (`import { jsonSchema } from "ai"`):
   * pass it to get the AI SDK's `Schema` type, so the result type-checks as a
   * `ToolSet`. Default: an equivalent structural object.
   */
  jsonSchema?: (schema: JsonSchemaObject) => Schema;
  /** Names the target provider accepts; default OpenAI's `^[a-zA-Z0-9_-]{1,64}$`, which every major provider accepts. */
  namePattern?: RegExp;
  /** Per-call options for `executeToolCall` (updates, events, host context), given the call id. */
  executeOptions?(toolCallId: string): Omit<ExecuteToolCallOptions, "signal">;
}

/** Builds the AI SDK schema object for a JSON Schema (what `jsonSchema()` from `ai` returns, without validation). */
export function toAiSdkJsonSchema(schema: JsonSchemaObject): AiSdkJsonSchema {
  return { [AI_SDK_SCHEMA_SYMBOL]: true, _type: undefined, jsonSchema: schema, validate: undefined };
}

/** Renders a registry result as AI SDK tool output. */
export function toAiSdkToolResultOutput(result: ToolResult): AiSdkToolResultOutput {
  const hasImage = result.content.some((part) => part.type === "image");
  if (hasImage && !result.isError) {
    return {
      type: "content",
      value: result.content.map((part) =>
        part.type === "text" ? { type: "text" as const, text: part.text } : { type: "image-data" as const, data: part.data, mediaType: part.mimeType },
      ),
    };
  }
  const text = result.content
    .filter((part): part is Extract<typeof part, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n");
  return result.isError ? { type: "error-text", value: text } : { type: "text", value: text };
}

/**
 * The registry's tools as Vercel AI SDK tools: description, the JSON Schema
 * wrapped as the AI SDK's `jsonSchema()` does, and `execute` routed to
 * `registry.executeToolCall` (abort signal passed on). Results reach the
 * model as their text (`error-text` for failures, `content` with images).
 * Name and schema rules as for OpenAI unless `namePattern` says otherwise.
 *
 * @example
 * import { generateText, jsonSchema, stepCountIs } from "ai";
 * const result = await generateText({
 *   model,
 *   prompt: "Plan the refactor as tasks.",
 *   tools: toAiSdkTools(registry, { jsonSchema }),
 *   stopWhen: stepCountIs(10),
 * });
 */
export function toAiSdkTools<Schema = AiSdkJsonSchema>(source: AiSdkToolSource, options: AiSdkToolsOptions<Schema> = {}): Record<string, AiSdkTool<Schema>> {
  const wrap = options.jsonSchema ?? (toAiSdkJsonSchema as unknown as (schema: JsonSchemaObject) => Schema);
  const tools: Record<string, AiSdkTool<Schema>> = {};
  for (const tool of selectProviderTools(source.tools, { provider: "AI SDK", namePattern: options.namePattern ?? OPENAI_TOOL_NAME_PATTERN }, options)) {
    const name = tool.name;
    tools[name] = {
      description: tool.description,
      inputSchema: wrap(tool.inputSchema),
      execute: (input, executionOptions) =>
        source.executeToolCall(
          { id: executionOptions.toolCallId, name, arguments: input },
          { ...options.executeOptions?.(executionOptions.toolCallId), signal: executionOptions.abortSignal },
        ),
      toModelOutput: (argument) => {
        // AI SDK 6 passes { toolCallId, input, output }; AI SDK 5 passes the output itself.
        const output = "output" in argument && "toolCallId" in argument ? argument.output : (argument as unknown as ToolResult);
        return toAiSdkToolResultOutput(output);
      },
    };
  }
  return tools;
}
