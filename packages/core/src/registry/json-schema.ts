import { z, type ZodType } from "zod";
import { SdkError } from "../errors.js";
import type { JsonSchemaObject } from "../types.js";

const DROPPED_KEYS = new Set(["$schema", "$id", "$comment"]);

/**
 * Converts a zod input schema into the JSON Schema object a model sees:
 * an object at the top, `additionalProperties: false`, no `$schema` and no
 * keys that some providers reject.
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
    if (DROPPED_KEYS.has(key)) continue;
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
