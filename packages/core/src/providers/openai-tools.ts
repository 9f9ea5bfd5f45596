import { OPENAI_TOOL_NAME_PATTERN, type ProviderToolsOptions, type ToolSchemaInput, selectProviderTools, toolSchemasOf } from "./provider-tool-rules.js";
import type { JsonSchemaObject } from "../types.js";

/** A tool in the OpenAI chat-completions `tools` array. */
export interface OpenAITool {
  type: "function";
  function: {
    name: string;
    description: string;
    /** The JSON Schema of the arguments (no `strict`: some schemas would fail strict mode). */
    parameters: JsonSchemaObject;
  };
}

/**
 * The registry's tools in OpenAI's chat-completions format. Enforces OpenAI's
 * rules: names match `^[a-zA-Z0-9_-]{1,64}$`, parameters are an object
 * schema without a top-level combinator, at most 128 tools.
 *
 * @example
 * const completion = await openai.chat.completions.create({
 *   model: "gpt-4o-mini",
 *   messages,
 *   tools: toOpenAITools(registry), // or toOpenAITools(registry.tools)
 * });
 */
export function toOpenAITools(source: ToolSchemaInput, options: ProviderToolsOptions = {}): OpenAITool[] {
  return selectProviderTools(toolSchemasOf(source), { provider: "OpenAI", namePattern: OPENAI_TOOL_NAME_PATTERN, maxTools: 128 }, options).map((tool) => ({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  }));
}
