import { SdkError } from "../errors.js";
import { V4A_LARK_GRAMMAR } from "../patch/lark-grammar.js";
import { closestName } from "../registry/closest-name.js";
import type { JsonSchemaObject, ToolSchema } from "../types.js";
import { APPLY_PATCH_TOOL_NAME } from "./openai-responses-apply-patch.js";
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

/** ApplyPatch as a Responses API custom tool: the model writes the patch itself, constrained by the V4A grammar. */
export interface OpenAIResponsesCustomTool {
  type: "custom";
  name: string;
  description: string;
  format: { type: "grammar"; syntax: "lark"; definition: string };
}

/** The Responses API's built-in `apply_patch` tool: the model sends one file operation per `apply_patch_call`. */
export interface OpenAIResponsesApplyPatchTool {
  type: "apply_patch";
}

/** How {@link toOpenAIResponsesTools} offers the ApplyPatch tool. */
export type OpenAIResponsesApplyPatchForm = "function" | "custom" | "builtin";

/** Options of {@link toOpenAIResponsesTools}. */
export interface OpenAIResponsesToolsOptions<Form extends OpenAIResponsesApplyPatchForm = OpenAIResponsesApplyPatchForm> extends OpenAIToolsOptions {
  /**
   * How the registry's ApplyPatch tool is offered: `function` (default), a
   * function tool with a JSON `{ patch }` argument like every other tool;
   * `custom`, a free-form custom tool whose input is the patch text,
   * constrained by `V4A_LARK_GRAMMAR` (answer its `custom_tool_call` items
   * with `fromResponsesCustomToolCall`); `builtin`, the API's own
   * `{ type: "apply_patch" }` tool (answer its `apply_patch_call` items with
   * `executeResponsesApplyPatchCall`). `custom` and `builtin` need
   * ApplyPatch in the registry.
   */
  applyPatch?: Form;
}

/** The tools {@link toOpenAIResponsesTools} returns for an `applyPatch` form. */
export type OpenAIResponsesToolOf<Form extends OpenAIResponsesApplyPatchForm> =
  | OpenAIResponsesTool
  | (Form extends "custom" ? OpenAIResponsesCustomTool : never)
  | (Form extends "builtin" ? OpenAIResponsesApplyPatchTool : never);

const APPLY_PATCH_FORMS: readonly OpenAIResponsesApplyPatchForm[] = ["function", "custom", "builtin"];

/** The `applyPatch` option checked: a known form, and ApplyPatch in the registry when the form needs it. */
function applyPatchFormOf(value: unknown, tools: readonly ToolSchema[]): OpenAIResponsesApplyPatchForm {
  if (value === undefined) return "function";
  if (typeof value !== "string" || !(APPLY_PATCH_FORMS as readonly string[]).includes(value)) {
    const suggestion = typeof value === "string" ? closestName(value, APPLY_PATCH_FORMS) : undefined;
    throw new SdkError(
      "invalid_options",
      `toOpenAIResponsesTools: applyPatch ${JSON.stringify(value)} is not one of ${APPLY_PATCH_FORMS.map((form) => `"${form}"`).join(", ")}.${suggestion ? ` Did you mean "${suggestion}"?` : ""}`,
      { option: "applyPatch", value, ...(suggestion ? { suggestion } : {}) },
    );
  }
  const form = value as OpenAIResponsesApplyPatchForm;
  if (form !== "function" && !tools.some((tool) => tool.name === APPLY_PATCH_TOOL_NAME)) {
    throw new SdkError(
      "invalid_options",
      `toOpenAIResponsesTools: applyPatch "${form}" offers the ${APPLY_PATCH_TOOL_NAME} tool, but the tools given have none. List it (buildBuiltinToolRegistry's editSurface "apply_patch" or "both") or leave applyPatch out.`,
      { option: "applyPatch", value: form },
    );
  }
  return form;
}

/**
 * The registry's tools in the OpenAI Responses API format (`{ type:
 * "function", name, description, parameters, strict }`). Same rules as
 * {@link toOpenAITools}: names match `^[a-zA-Z0-9_-]{1,64}$`, an object
 * schema without a top-level combinator, at most 128 tools. `strict` is sent
 * as `false` unless the `strict` option is set, because the Responses API
 * defaults it to `true` and most schemas are not in the strict subset.
 *
 * `applyPatch: "custom"` offers ApplyPatch as a free-form custom tool with
 * the V4A Lark grammar, `applyPatch: "builtin"` as the API's built-in
 * `apply_patch` tool; both throw `SdkError("invalid_options")` when the
 * registry has no ApplyPatch, as does an unknown form (with the closest one).
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
export function toOpenAIResponsesTools<Form extends OpenAIResponsesApplyPatchForm = "function">(
  source: ToolSchemaInput,
  options: OpenAIResponsesToolsOptions<Form> = {},
): Array<OpenAIResponsesToolOf<Form>> {
  const tools = toolSchemasOf(source);
  const form = applyPatchFormOf(options.applyPatch, tools);
  return selectProviderTools(tools, openAIToolRules(options), options).map((tool): OpenAIResponsesToolOf<Form> => {
    if (tool.name === APPLY_PATCH_TOOL_NAME && form === "builtin") return { type: "apply_patch" } as OpenAIResponsesToolOf<Form>;
    if (tool.name === APPLY_PATCH_TOOL_NAME && form === "custom") {
      return {
        type: "custom",
        name: tool.name,
        description: `${tool.description}\n\nThis is a free-form tool: send the patch text itself ("*** Begin Patch" ... "*** End Patch"), not JSON.`,
        format: { type: "grammar", syntax: "lark", definition: V4A_LARK_GRAMMAR },
      } as OpenAIResponsesToolOf<Form>;
    }
    return { type: "function", name: tool.name, description: tool.description, parameters: tool.inputSchema, strict: options.strict === true };
  });
}
