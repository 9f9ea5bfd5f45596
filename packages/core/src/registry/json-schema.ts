import { z, type ZodType } from "zod";
import { SdkError } from "../errors.js";
import type { JsonSchemaObject } from "../types.js";

const DROPPED_KEYS = new Set(["$schema", "$id", "$comment", "propertyNames"]);
const SCHEMA_MAP_KEYS = new Set(["properties", "patternProperties", "$defs", "definitions"]);
const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Converts a zod input schema into the JSON Schema object a model sees:
 * an object at the top, `additionalProperties: false`, no `$schema` and no
 * keys that some providers reject (`propertyNames`, `const`, the
 * safe-integer bounds zod adds to every integer).
 */
export function toToolJsonSchema(schema: ZodType, toolName: string): JsonSchemaObject {
  let raw: Record<string, unknown>;
  try {
    raw = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  } catch (error) {
    throw new SdkError("invalid_tool_definition", `Tool ${toolName}: its input schema cannot be converted to JSON Schema: ${(error as Error).message}`);
  }
  const cleaned = stripKeys(raw) as Record<string, unknown>;
  if (cleaned.type !== "object") {
    throw new SdkError("invalid_tool_definition", `Tool ${toolName}: the input schema must be a zod object at the top level.`);
  }
  return { ...cleaned, type: "object", properties: (cleaned.properties as Record<string, unknown>) ?? {}, additionalProperties: false };
}

function stripKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    if (SCHEMA_MAP_KEYS.has(key) && child !== null && typeof child === "object" && !Array.isArray(child)) {
      // Keys of these maps are property names, not schema keywords: keep them all.
      out[key] = Object.fromEntries(Object.entries(child as Record<string, unknown>).map(([name, schema]) => [name, stripKeys(schema)]));
      continue;
    }
    if (DROPPED_KEYS.has(key)) continue;
    // zod writes the safe-integer range on every int; it says nothing and bloats the schema.
    if ((key === "minimum" || key === "maximum") && Math.abs(child as number) === SAFE_INTEGER_BOUND) continue;
    // Some providers reject `const`; a one-value enum means the same.
    if (key === "const") {
      out.enum = [child];
      continue;
    }
    out[key] = stripKeys(child);
  }
  return out;
}

/**
 * Coerces a foreign (e.g. MCP) input schema into an object schema: a
 * non-object becomes `{type:"object"}`, a missing `type` is added and any
 * other top-level type is forced to `object`.
 */
export function coerceInputSchema(schema: unknown): JsonSchemaObject {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { type: "object", properties: {} };
  const cleaned = stripKeys(schema) as Record<string, unknown>;
  return { ...cleaned, type: "object" };
}
