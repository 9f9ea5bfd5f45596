import type { JsonSchemaObject } from "../types.js";
import { type OpenAIToolsOptions, openAIToolRules } from "./openai-tools.js";
import { type ToolSchemaInput, selectProviderTools, toolSchemasOf } from "./provider-tool-rules.js";

/** A function tool in the OpenAI Responses API `tools` array (flat: no nested `function`). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  /** The JSON Schema of the arguments; with `strict: true`, rewritten to OpenAI's strict subset. */
  parameters: JsonSchemaObject;
  /** Always sent: the Responses API treats a missing `strict` as `true`. */
  strict: boolean;
}

/**
 * The registry's tools in the OpenAI Responses API format (`{ type:
 * "function", name, description, parameters, strict }`). Same rules as
 * {@link toOpenAITools}: names match `^[a-zA-Z0-9_-]{1,64}$`, an object
 * schema without a top-level combinator, at most 128 tools. `strict` is sent
 * as `false` unless the `strict` option is set, because the Responses API
 * defaults it to `true` and most schemas are not in the strict subset.
 *
 * @example
 * const response = await openai.responses.create({
 *   model: "gpt-4.1",
 *   input,
 *   tools: toOpenAIResponsesTools(registry, { strict: true }),
 * });
 * // for each function_call item:
 * const tool = registry.tools.find((candidate) => candidate.name === item.name)!;
 * await registry.executeToolCall({ id: item.call_id, name: item.name, arguments: fromStrictArguments(tool.inputSchema, item.arguments) });
 */
export function toOpenAIResponsesTools(source: ToolSchemaInput, options: OpenAIToolsOptions = {}): OpenAIResponsesTool[] {
  return selectProviderTools(toolSchemasOf(source), openAIToolRules(options), options).map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.inputSchema,
    strict: options.strict === true,
  }));
}
