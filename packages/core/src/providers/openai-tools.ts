import type { JsonSchemaObject } from "../types.js";
import { toOpenAIStrictSchema } from "./openai-strict-schema.js";
import {
  OPENAI_TOOL_NAME_PATTERN,
  type ProviderToolRules,
  type ProviderToolsOptions,
  type ToolSchemaInput,
  selectProviderTools,
  toolSchemasOf,
} from "./provider-tool-rules.js";

/** A tool in the OpenAI chat-completions `tools` array. */
export interface OpenAITool {
  type: "function";
  function: {
    name: string;
    description: string;
    /** The JSON Schema of the arguments; with `strict: true`, rewritten to OpenAI's strict subset. */
    parameters: JsonSchemaObject;
    /** Present (and `true`) only when {@link OpenAIToolsOptions.strict} was asked for. */
    strict?: true;
  };
}

/** Options of {@link toOpenAITools} and {@link toOpenAIResponsesTools}. */
export interface OpenAIToolsOptions extends ProviderToolsOptions {
  /**
   * Send each tool with `strict: true` and its schema rewritten to OpenAI's
   * strict subset ({@link toOpenAIStrictSchema}). The model then sends `null`
   * for properties that were optional: map them back with
   * {@link fromStrictArguments} before `registry.executeToolCall`. A schema with
   * no strict form is rejected like any invalid tool (thrown, or skipped with
   * `invalidTools: "skip"`). Default `false`.
   */
  strict?: boolean;
}

/** OpenAI's rules for both of its tool formats. */
export function openAIToolRules(options: OpenAIToolsOptions): ProviderToolRules {
  return { provider: "OpenAI", namePattern: OPENAI_TOOL_NAME_PATTERN, maxTools: 128, adaptSchema: options.strict ? toOpenAIStrictSchema : undefined };
}

/**
 * The registry's tools in OpenAI's chat-completions format. Enforces OpenAI's
 * rules: names match `^[a-zA-Z0-9_-]{1,64}$`, parameters are an object
 * schema without a top-level combinator, at most 128 tools (with
 * `invalidTools: "skip"`, the first 128 are kept).
 *
 * @example
 * const completion = await openai.chat.completions.create({
 *   model: "gpt-4o-mini",
 *   messages,
 *   tools: toOpenAITools(registry), // or toOpenAITools(registry.tools)
 * });
 */
export function toOpenAITools(source: ToolSchemaInput, options: OpenAIToolsOptions = {}): OpenAITool[] {
  return selectProviderTools(toolSchemasOf(source), openAIToolRules(options), options).map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema, ...(options.strict ? { strict: true as const } : {}) },
  }));
}
