import type { JsonSchemaObject } from "../types.js";

/*
 * OpenAI's strict mode (Structured Outputs, `strict: true` on a function tool)
 * accepts a subset of JSON Schema. From OpenAI's "Supported schemas" guide:
 * - every object sets `additionalProperties: false` and lists every property
 *   in `required`; an optional field is emulated as a union with `null`;
 * - the root is an object, not an `anyOf`;
 * - supported: `type`, `description`, `properties`, `required`,
 *   `additionalProperties`, `items`, `enum`, `const`, `anyOf`, `$ref`/`$defs`;
 *   strings `pattern` and `format` (date-time, time, date, duration, email,
 *   hostname, ipv4, ipv6, uuid); numbers `multipleOf`, `minimum`, `maximum`,
 *   `exclusiveMinimum`, `exclusiveMaximum`; arrays `minItems`, `maxItems`;
 * - not supported: `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
 *   `dependentSchemas`, `patternProperties` and the like;
 * - at most 5 000 object properties and 10 levels of nesting; at most 1 000
 *   enum values; property names, definition names, enum and const values
 *   together at most 120 000 characters.
 * We keep only that supported set (conservative: anything else, e.g.
 * `default`, `minLength`/`maxLength`, `title`, `examples`, an unlisted
 * `format`, is dropped; a dropped keyword only loosens what the model may
 * send, and the registry validates the original schema afterwards).
 */

const COMMON_KEYWORDS = new Set(["type", "description", "enum", "const", "anyOf", "$ref"]);
const KEYWORDS_BY_TYPE: Record<string, readonly string[]> = {
  object: ["properties", "required", "additionalProperties"],
  array: ["items", "minItems", "maxItems"],
  string: ["pattern", "format"],
  number: ["multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
  integer: ["multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
};
/** String formats strict mode supports. */
export const OPENAI_STRICT_STRING_FORMATS: readonly string[] = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];
/** Keywords we cannot drop without changing what a valid value is in a way the model could not follow. */
const UNREPRESENTABLE = ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "unevaluatedProperties"];

/** OpenAI's documented size limits for a strict schema. */
export const OPENAI_STRICT_LIMITS = { maxObjectProperties: 5000, maxNestingDepth: 10, maxEnumValues: 1000, maxTotalStringLength: 120_000 } as const;

type Schema = Record<string, unknown>;

class StrictSchemaProblem extends Error {}

function isRecord(value: unknown): value is Schema {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** An object whose keys are free and whose values follow `additionalProperties` (zod's `z.record`). */
function isMap(schema: Schema): boolean {
  return typesOf(schema).includes("object") && !isRecord(schema.properties) && isRecord(schema.additionalProperties);
}

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return [];
}

/** `schema` that also accepts `null`, in the form strict mode takes. */
function nullable(schema: Schema): Schema {
  const types = typesOf(schema);
  if (types.includes("null")) return schema;
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  if (types.length > 0 && schema.const === undefined && schema.$ref === undefined) {
    const result: Schema = { ...schema, type: [...types, "null"] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
    return result;
  }
  // No simple type (a $ref, a const, an enum alone): a union with null.
  const { description, ...rest } = schema;
  return description === undefined ? { anyOf: [rest, { type: "null" }] } : { description, anyOf: [rest, { type: "null" }] };
}

interface Counters {
  properties: number;
  enumValues: number;
  stringLength: number;
}

function strictNode(schema: unknown, depth: number, counters: Counters, path: string): Schema {
  // `{}` or `true` (any value) has no strict form.
  if (!isRecord(schema)) throw new StrictSchemaProblem(`${path} is not a schema object`);
  const unrepresentable = UNREPRESENTABLE.find((key) => key in schema);
  if (unrepresentable) throw new StrictSchemaProblem(`${path} uses "${unrepresentable}", which strict mode does not support`);
  const source: Schema = { ...schema };
  // oneOf is not supported; anyOf is, and the registry still checks the original oneOf afterwards.
  if (Array.isArray(source.oneOf) && source.anyOf === undefined) source.anyOf = source.oneOf;
  const types = typesOf(source);
  const allowed = new Set(COMMON_KEYWORDS);
  for (const type of types) for (const key of KEYWORDS_BY_TYPE[type] ?? []) allowed.add(key);
  if (isRecord(source.properties)) for (const key of KEYWORDS_BY_TYPE.object!) allowed.add(key);
  if (source.items !== undefined) for (const key of KEYWORDS_BY_TYPE.array!) allowed.add(key);
  if (types.length === 0 && source.anyOf === undefined && source.$ref === undefined && source.enum === undefined && source.const === undefined) {
    throw new StrictSchemaProblem(`${path} has no type`);
  }

  const result: Schema = {};
  for (const [key, value] of Object.entries(source)) {
    if (!allowed.has(key)) continue;
    if (key === "format" && !(typeof value === "string" && OPENAI_STRICT_STRING_FORMATS.includes(value))) continue;
    result[key] = value;
  }
  if (Array.isArray(result.enum)) {
    counters.enumValues += result.enum.length;
    for (const value of result.enum) if (typeof value === "string") counters.stringLength += value.length;
  }
  if (typeof result.const === "string") counters.stringLength += result.const.length;
  if (Array.isArray(result.anyOf)) result.anyOf = result.anyOf.map((branch, index) => strictNode(branch, depth, counters, `${path}.anyOf[${index}]`));

  if (isMap(source)) {
    // Strict mode has no maps (objects must list their keys), so a map goes out as a list of entries; fromStrictArguments turns it back.
    const description = typeof source.description === "string" ? `${source.description} ` : "";
    return {
      type: "array",
      description: `${description}A list of { key, value } entries.`,
      items: strictNode(
        { type: "object", properties: { key: { type: "string" }, value: source.additionalProperties }, required: ["key", "value"] },
        depth + 1,
        counters,
        `${path}{}`,
      ),
    };
  }
  if (types.includes("object") || isRecord(source.properties)) {
    if (depth > OPENAI_STRICT_LIMITS.maxNestingDepth)
      throw new StrictSchemaProblem(`${path} nests objects deeper than ${OPENAI_STRICT_LIMITS.maxNestingDepth} levels`);
    if (depth > 1 && !isRecord(source.properties) && source.additionalProperties !== false) {
      throw new StrictSchemaProblem(`${path} is a free-form object (no properties), which strict mode does not support`);
    }
    const properties = isRecord(source.properties) ? source.properties : {};
    const required = new Set(Array.isArray(source.required) ? source.required : []);
    const strictProperties: Schema = {};
    for (const [name, property] of Object.entries(properties)) {
      counters.properties += 1;
      counters.stringLength += name.length;
      const strict = strictNode(property, depth + 1, counters, `${path}.${name}`);
      strictProperties[name] = required.has(name) ? strict : nullable(strict);
    }
    result.properties = strictProperties;
    result.required = Object.keys(strictProperties);
    result.additionalProperties = false;
  }
  if (source.items !== undefined) {
    if (Array.isArray(source.items)) throw new StrictSchemaProblem(`${path} is a tuple (items as an array), which strict mode does not support`);
    result.items = strictNode(source.items, depth + 1, counters, `${path}[]`);
  }
  for (const definitions of ["$defs", "definitions"] as const) {
    if (!isRecord(source[definitions])) continue;
    const strictDefinitions: Schema = {};
    for (const [name, definition] of Object.entries(source[definitions])) {
      counters.stringLength += name.length;
      strictDefinitions[name] = strictNode(definition, depth, counters, `${path}.${definitions}.${name}`);
    }
    result[definitions] = strictDefinitions;
  }
  return result;
}

/**
 * `schema` rewritten to OpenAI's strict subset, or the reason it has no
 * strict form. Every object gets `additionalProperties: false` and lists all
 * its properties in `required`; a property that was optional becomes
 * nullable (`type: [T, "null"]`, or `anyOf` with `{ type: "null" }` when it
 * has no simple type); a map (`additionalProperties` schema, no
 * `properties`) becomes a list of `{ key, value }` entries; keywords strict
 * mode does not document are dropped.
 * Map the `null`s back with {@link fromStrictArguments} before validation.
 *
 * @example
 * const result = toOpenAIStrictSchema(tool.inputSchema);
 * if (result.problem === undefined) send({ ...tool, parameters: result.schema, strict: true });
 */
export function toOpenAIStrictSchema(schema: JsonSchemaObject): { schema: JsonSchemaObject; problem?: undefined } | { schema?: undefined; problem: string } {
  if (Array.isArray(schema.anyOf)) return { problem: "strict mode does not accept anyOf at the root" };
  const counters: Counters = { properties: 0, enumValues: 0, stringLength: 0 };
  try {
    const strict = strictNode(JSON.parse(JSON.stringify(schema)), 1, counters, "input");
    if (counters.properties > OPENAI_STRICT_LIMITS.maxObjectProperties) {
      return { problem: `its schema has ${counters.properties} object properties; strict mode allows ${OPENAI_STRICT_LIMITS.maxObjectProperties}` };
    }
    if (counters.enumValues > OPENAI_STRICT_LIMITS.maxEnumValues) {
      return { problem: `its schema has ${counters.enumValues} enum values; strict mode allows ${OPENAI_STRICT_LIMITS.maxEnumValues}` };
    }
    if (counters.stringLength > OPENAI_STRICT_LIMITS.maxTotalStringLength) {
      return {
        problem: `its schema's names and enum values total ${counters.stringLength} characters; strict mode allows ${OPENAI_STRICT_LIMITS.maxTotalStringLength}`,
      };
    }
    return { schema: strict as JsonSchemaObject };
  } catch (error) {
    if (error instanceof StrictSchemaProblem) return { problem: `its schema has no strict form: ${error.message}` };
    throw error;
  }
}

function resolveReference(schema: Schema, root: Schema): Schema {
  let current = schema;
  // Local references only (`#/$defs/x`, `#/definitions/x`), as strict mode uses; a bounded walk guards against loops.
  for (let hops = 0; hops < 32 && typeof current.$ref === "string"; hops += 1) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(current.$ref);
    const container = match ? root[match[1]!] : undefined;
    const target = isRecord(container) ? container[decodeURIComponent(match![2]!).replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    if (!isRecord(target)) return current;
    current = target;
  }
  return current;
}

function acceptsNull(schema: Schema): boolean {
  if (typesOf(schema).includes("null") || schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  for (const key of ["anyOf", "oneOf"] as const) {
    const branches = schema[key];
    if (Array.isArray(branches) && branches.some((branch) => isRecord(branch) && acceptsNull(branch))) return true;
  }
  return false;
}

function strip(value: unknown, schema: unknown, root: Schema): unknown {
  if (!isRecord(schema)) return value;
  const resolved = resolveReference(schema, root);
  if (Array.isArray(value)) {
    if (isMap(resolved)) {
      // The entry list toOpenAIStrictSchema made of a map, back to the map; anything else is left for validation to report.
      const entries = value.filter((entry): entry is Schema => isRecord(entry) && typeof entry.key === "string");
      if (entries.length !== value.length) return value;
      return Object.fromEntries(entries.map((entry) => [entry.key, strip(entry.value, resolved.additionalProperties, root)]));
    }
    return isRecord(resolved.items) ? value.map((item) => strip(item, resolved.items, root)) : value;
  }
  if (!isRecord(value)) return value;
  if (!isRecord(resolved.properties)) {
    // A union of object shapes: follow the branch only when exactly one object branch exists, as the transform wrapped optional objects.
    const branches = (Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : [])
      .filter(isRecord)
      .map((branch) => resolveReference(branch, root))
      .filter((branch) => isRecord(branch.properties));
    return branches.length === 1 ? strip(value, branches[0], root) : value;
  }
  const properties = resolved.properties;
  const required = new Set(Array.isArray(resolved.required) ? resolved.required : []);
  const result: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (item === null && !required.has(key) && isRecord(property) && !acceptsNull(resolveReference(property, root))) continue;
    result[key] = strip(item, property, root);
  }
  return result;
}

/**
 * The arguments a strict-mode model sent, mapped back to the tool's original
 * schema: a `null` for a property the original schema made optional (and
 * that does not itself accept `null`) becomes absent, in nested objects and
 * arrays too, and a map sent as `{ key, value }` entries becomes an object again. Call it before `registry.executeToolCall` when the tools went
 * out with `strict: true`. Takes the parsed arguments or their JSON text;
 * returns a new value, text that is not JSON unchanged.
 *
 * @example
 * const tool = registry.tools.find((candidate) => candidate.name === call.name);
 * const args = tool ? fromStrictArguments(tool.inputSchema, call.arguments) : call.arguments;
 * const result = await registry.executeToolCall({ ...call, arguments: args });
 */
export function fromStrictArguments(originalSchema: JsonSchemaObject, args: unknown): unknown {
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch {
      return args;
    }
  }
  return strip(value, originalSchema, originalSchema);
}
