import { ANTHROPIC_TOOL_NAME_PATTERN, type ProviderToolsOptions, type ToolSchemaInput, selectProviderTools, toolSchemasOf } from "./provider-tool-rules.js";
import type { JsonSchemaObject } from "../types.js";

/** A tool in the Anthropic Messages API `tools` array. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  /** Set on the last tool when `cacheControl` is asked for. */
  cache_control?: { type: "ephemeral" };
}

/** Options of {@link toAnthropicTools}. */
export interface AnthropicToolsOptions extends ProviderToolsOptions {
  /** Mark the last tool with `cache_control: { type: "ephemeral" }` so the tool list is prompt-cached. */
  cacheControl?: boolean;
}

/**
 * The registry's tools in Anthropic's Messages API format. Enforces
 * Anthropic's rules: names match `^[a-zA-Z0-9_-]{1,64}$`, `input_schema` is
 * an object schema without top-level `oneOf`/`anyOf`/`allOf`.
 *
 * @example
 * const message = await anthropic.messages.create({
 *   model: "claude-sonnet-4-5",
 *   max_tokens: 4096,
 *   messages,
 *   tools: toAnthropicTools(registry, { cacheControl: true }),
 * });
 */
export function toAnthropicTools(source: ToolSchemaInput, options: AnthropicToolsOptions = {}): AnthropicTool[] {
  const tools: AnthropicTool[] = selectProviderTools(toolSchemasOf(source), { provider: "Anthropic", namePattern: ANTHROPIC_TOOL_NAME_PATTERN }, options).map(
    (tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.inputSchema,
    }),
  );
  if (options.cacheControl && tools.length > 0) tools[tools.length - 1]!.cache_control = { type: "ephemeral" };
  return tools;
}
