import type { JsonSchemaObject } from "@agent-tools/core";
import { coerceInputSchema } from "@agent-tools/core/internal";
import type { McpRemoteTool } from "./mcp-remote-types.js";

/** A coerced input schema and what had to change (empty when the schema was valid). */
export interface CoercedMcpInputSchema {
  schema: JsonSchemaObject;
  /** Short notes such as `type "string" became "object"`, for a warning. */
  fixes: string[];
}

/** One raw `tools/list` entry after coercion: a usable tool, or why it was skipped. */
export type McpRemoteToolCoercion = { tool: McpRemoteTool; fixes: string[] } | { skipped: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  return `a ${typeof value}`;
}

/**
 * Coerces an MCP tool's input schema into the object schema a model can be
 * offered, extending core's `coerceInputSchema` (non-object schema becomes
 * `{type:"object"}`, a missing `type` is added, any other top-level type is
 * forced to `object`) with the repairs a `tools/list` answer needs:
 * `properties` that is not a plain object is replaced by `{}` and, because the
 * tool's real arguments are then unknown, `additionalProperties: true` lets
 * the model pass any key (the server still validates); a property schema that
 * is not an object or boolean becomes `{}`; `required` keeps only its strings
 * (dropped when it is not an array). Idempotent.
 *
 * @example
 * coerceMcpInputSchema({ type: "string", properties: ["query"] });
 * // { schema: { type: "object", properties: {}, additionalProperties: true }, fixes: [...] }
 */
export function coerceMcpInputSchema(raw: unknown): CoercedMcpInputSchema {
  const fixes: string[] = [];
  if (!isPlainObject(raw)) {
    // An absent schema is how some servers say "no arguments"; only a present non-object is a defect.
    if (raw !== undefined) fixes.push(`the input schema was ${describeValue(raw)}, not an object`);
    return { schema: coerceInputSchema(raw), fixes };
  }
  if (raw.type === undefined) fixes.push(`type was missing`);
  else if (raw.type !== "object") fixes.push(`type ${describeValue(raw.type)} became "object"`);
  const schema: JsonSchemaObject = coerceInputSchema(raw);
  if (schema.properties !== undefined && !isPlainObject(schema.properties)) {
    fixes.push(`properties was ${describeValue(schema.properties)} and was dropped, so any argument is accepted`);
    schema.properties = {};
    schema.additionalProperties = true;
  } else if (schema.properties !== undefined) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (isPlainObject(property) || typeof property === "boolean") continue;
      fixes.push(`property ${name} had schema ${describeValue(property)}, replaced by {}`);
      schema.properties[name] = {};
    }
  }
  if (schema.required !== undefined) {
    const required: unknown = schema.required;
    if (!Array.isArray(required)) {
      fixes.push(`required was ${describeValue(required)} and was dropped`);
      delete schema.required;
    } else if (required.some((entry) => typeof entry !== "string")) {
      fixes.push(`required listed non-strings, which were dropped`);
      schema.required = required.filter((entry): entry is string => typeof entry === "string");
    }
  }
  return { schema, fixes };
}

/**
 * Turns one raw `tools/list` entry into an {@link McpRemoteTool} with a
 * coerced input schema. Only an entry that cannot be called at all (not an
 * object, or no non-empty string `name`) is skipped; a bad `description`,
 * `title` or `annotations` is dropped.
 */
export function coerceMcpRemoteTool(raw: unknown): McpRemoteToolCoercion {
  if (!isPlainObject(raw)) return { skipped: `a tools/list entry was ${describeValue(raw)}, not a tool object` };
  const { name, title, description, annotations, inputSchema } = raw;
  if (typeof name !== "string" || name.trim() === "") {
    const hint = typeof description === "string" && description.trim() ? ` (description: ${describeValue(description.trim())})` : "";
    return { skipped: `a tool has ${name === undefined ? "no name" : `the name ${describeValue(name)}`}${hint}, so it cannot be called` };
  }
  const { schema, fixes } = coerceMcpInputSchema(inputSchema);
  // Other fields (outputSchema, _meta, execution, ...) are kept as the server sent them; nothing here reads them.
  const tool = { ...raw, name, inputSchema: schema } as McpRemoteTool;
  if (title !== undefined && typeof title !== "string") delete tool.title;
  if (description !== undefined && typeof description !== "string") delete tool.description;
  if (annotations !== undefined && !isPlainObject(annotations)) delete tool.annotations;
  return { tool, fixes };
}
