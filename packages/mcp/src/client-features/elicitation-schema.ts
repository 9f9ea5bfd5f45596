/**
 * Elicitation forms: the check of a requested schema against the MCP spec's
 * restricted subset (a flat object of string, number, integer, boolean and
 * enum fields), defaults, and the check of an accepted answer against the
 * schema. Problems come back as lines naming the field, for error messages.
 */
import type { McpElicitationField, McpElicitationSchema } from "./client-feature-types.js";

const FIELD_TYPES = new Set(["string", "number", "integer", "boolean", "array"]);
const FORMATS = new Set(["email", "uri", "date", "date-time"]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");
const isConstList = (value: unknown): value is Array<{ const: string }> =>
  Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.const === "string");

/** The allowed values of an enum field (single or multi-select), or undefined when the field is no enum. */
export function elicitationChoices(field: McpElicitationField): string[] | undefined {
  if (field.type === "array") {
    if (field.items?.enum !== undefined) return field.items.enum;
    if (field.items?.anyOf !== undefined) return field.items.anyOf.map((option) => option.const);
    return undefined;
  }
  if (field.enum !== undefined) return field.enum;
  if (field.oneOf !== undefined) return field.oneOf.map((option) => option.const);
  return undefined;
}

/**
 * The problems of a requested schema: not a flat object, a field of another
 * type, nested properties, a malformed enum or bound, a `required` name that
 * is no field, a default that breaks its own field. Empty when it is usable.
 */
export function checkElicitationSchema(schema: unknown): string[] {
  if (!isRecord(schema) || schema.type !== "object") return ['requestedSchema must be an object schema ({ type: "object", properties }).'];
  if (!isRecord(schema.properties)) return ["requestedSchema.properties must be an object of fields."];
  const problems: string[] = [];
  for (const [name, field] of Object.entries(schema.properties)) problems.push(...checkField(name, field));
  if (schema.required !== undefined) {
    if (!isStringArray(schema.required)) problems.push("requestedSchema.required must be a list of field names.");
    else for (const name of schema.required) if (!(name in schema.properties)) problems.push(`required field ${JSON.stringify(name)} is not in properties.`);
  }
  return problems;
}

function checkField(name: string, field: unknown): string[] {
  const label = `field ${JSON.stringify(name)}`;
  if (!isRecord(field)) return [`${label} must be a schema object.`];
  if (typeof field.type !== "string" || !FIELD_TYPES.has(field.type))
    return [`${label} has type ${JSON.stringify(field.type)}; only string, number, integer, boolean and enum fields are allowed (no nested objects).`];
  if ("properties" in field) return [`${label} has nested properties; elicitation forms are flat.`];
  const problems: string[] = [];
  const bounds = field.type === "string" ? ["minLength", "maxLength"] : field.type === "array" ? ["minItems", "maxItems"] : ["minimum", "maximum"];
  for (const key of bounds)
    if (field[key] !== undefined && (typeof field[key] !== "number" || !Number.isFinite(field[key]))) problems.push(`${label}: ${key} must be a number.`);
  if (field.type === "string") {
    if (field.format !== undefined && !FORMATS.has(field.format as string)) problems.push(`${label}: format must be email, uri, date or date-time.`);
    if (field.enum !== undefined && (!isStringArray(field.enum) || field.enum.length === 0))
      problems.push(`${label}: enum must be a non-empty list of strings.`);
    if (field.oneOf !== undefined && (!isConstList(field.oneOf) || field.oneOf.length === 0))
      problems.push(`${label}: oneOf must list { const, title } options.`);
  }
  if (field.type === "array") {
    const items = field.items;
    const usable = isRecord(items) && ((isStringArray(items.enum) && items.enum.length > 0) || (isConstList(items.anyOf) && items.anyOf.length > 0));
    if (!usable) return [`${label}: an array field must be a multi-select enum (items.enum or items.anyOf of strings).`];
  }
  if (problems.length === 0 && field.default !== undefined) {
    const problem = elicitationValueProblem(field as unknown as McpElicitationField, field.default);
    if (problem !== undefined) problems.push(`${label}: default ${problem}.`);
  }
  return problems;
}

/** The content with every field the answer left out set to its default (a new object). */
export function applyElicitationDefaults(schema: McpElicitationSchema, content: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  for (const [name, field] of Object.entries(schema.properties)) {
    if (filled[name] === undefined && field.default !== undefined) filled[name] = Array.isArray(field.default) ? [...field.default] : field.default;
  }
  return filled;
}

/** The problems of an accepted answer: unknown or missing required fields, values that break their field. Empty when valid. */
export function checkElicitationContent(schema: McpElicitationSchema, content: unknown): string[] {
  if (!isRecord(content)) return ["content must be an object of field values."];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(content)) {
    const field = schema.properties[name];
    if (field === undefined) {
      problems.push(`field ${JSON.stringify(name)} is not in the requested schema.`);
      continue;
    }
    if (value === undefined) continue;
    const problem = elicitationValueProblem(field, value);
    if (problem !== undefined) problems.push(`field ${JSON.stringify(name)} ${problem}.`);
  }
  for (const name of schema.required ?? []) if (content[name] === undefined) problems.push(`required field ${JSON.stringify(name)} is missing.`);
  return problems;
}

/**
 * Why `value` does not fit `field` ("must be an integer", "must be one of
 * a, b", ...), or undefined when it does.
 *
 * @example
 * elicitationValueProblem({ type: "integer", minimum: 1 }, 0); // "must be at least 1"
 */
export function elicitationValueProblem(field: McpElicitationField, value: unknown): string | undefined {
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be true or false";
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
      if (field.type === "integer" && !Number.isInteger(value)) return "must be an integer";
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case "array": {
      if (!isStringArray(value)) return "must be a list of strings";
      const choices = elicitationChoices(field) ?? [];
      const unknown = value.filter((item) => !choices.includes(item));
      if (unknown.length > 0) return `must only hold values of ${choices.join(", ")} (not ${unknown.join(", ")})`;
      if (new Set(value).size !== value.length) return "must not repeat a value";
      if (field.minItems !== undefined && value.length < field.minItems) return `must hold at least ${field.minItems} value(s)`;
      if (field.maxItems !== undefined && value.length > field.maxItems) return `must hold at most ${field.maxItems} value(s)`;
      return undefined;
    }
    case "string": {
      if (typeof value !== "string") return "must be a string";
      const choices = elicitationChoices(field);
      if (choices !== undefined) return choices.includes(value) ? undefined : `must be one of ${choices.join(", ")}`;
      const length = [...value].length;
      if (field.minLength !== undefined && length < field.minLength) return `must be at least ${field.minLength} character(s)`;
      if (field.maxLength !== undefined && length > field.maxLength) return `must be at most ${field.maxLength} character(s)`;
      return field.format === undefined || matchesFormat(field.format, value) ? undefined : `must be ${FORMAT_NAMES[field.format]}`;
    }
    default:
      return "has a field type the client does not know";
  }
}

const FORMAT_NAMES = {
  email: "an email address",
  uri: "an absolute URI",
  date: "a date (YYYY-MM-DD)",
  "date-time": "a date and time (RFC 3339, e.g. 2026-01-31T09:30:00Z)",
};

function matchesFormat(format: NonNullable<McpElicitationField["format"]>, value: string): boolean {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
    case "uri":
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(value) && URL.canParse(value);
    case "date":
      return isCalendarDate(value);
    case "date-time": {
      const match = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/.exec(value);
      if (match === null || !isCalendarDate(match[1]!)) return false;
      const [hours, minutes, seconds] = [Number(match[2]), Number(match[3]), Number(match[4])];
      const offsetOk = match[7] === undefined || (Number(match[7]) < 24 && Number(match[8]) < 60);
      return hours < 24 && minutes < 60 && seconds < 61 && offsetOk;
    }
  }
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
