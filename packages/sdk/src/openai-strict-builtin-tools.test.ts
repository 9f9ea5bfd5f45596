import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ToolRegistry, fromStrictArguments, toOpenAIResponsesTools, toOpenAITools } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

/*
 * Every built-in tool schema, sent with `strict: true`, must be in the subset
 * OpenAI documents for strict mode ("Supported schemas" in the Structured
 * Outputs guide). This checker is written from that page, not from the
 * transform, so the two can disagree.
 */
type Schema = Record<string, unknown>;
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const ANY_TYPE = ["type", "description", "enum", "const", "anyOf", "$ref", "$defs"];
const BY_TYPE: Record<string, string[]> = {
  object: ["properties", "required", "additionalProperties"],
  array: ["items", "minItems", "maxItems"],
  string: ["pattern", "format"],
  number: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  integer: ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"],
  null: [],
  boolean: [],
};
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

function typeList(schema: Schema): string[] {
  return schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
}

/** The ways `schema` breaks OpenAI's documented strict rules (empty when it complies). */
function strictViolations(root: Schema): string[] {
  const violations: string[] = [];
  const totals = { properties: 0, enumValues: 0, characters: 0 };
  if (root.type !== "object") violations.push("root: not an object");
  if ("anyOf" in root) violations.push("root: anyOf");
  const visit = (schema: unknown, at: string, depth: number) => {
    if (schema === null || typeof schema !== "object" || Array.isArray(schema)) {
      violations.push(`${at}: not a schema object`);
      return;
    }
    const node = schema as Schema;
    const types = typeList(node);
    for (const type of types) if (!TYPES.has(type)) violations.push(`${at}: type ${type}`);
    if (types.length === 0 && !node.anyOf && !node.$ref && !node.enum && node.const === undefined) violations.push(`${at}: no type`);
    const allowed = new Set([...ANY_TYPE, ...types.flatMap((type) => BY_TYPE[type] ?? [])]);
    for (const key of Object.keys(node)) if (!allowed.has(key)) violations.push(`${at}: keyword ${key}`);
    if (node.format !== undefined && !FORMATS.has(node.format as string)) violations.push(`${at}: format ${String(node.format)}`);
    if (Array.isArray(node.enum)) {
      totals.enumValues += node.enum.length;
      for (const value of node.enum) if (typeof value === "string") totals.characters += value.length;
    }
    if (types.includes("object")) {
      if (depth > 10) violations.push(`${at}: nested deeper than 10`);
      if (node.additionalProperties !== false) violations.push(`${at}: additionalProperties is not false`);
      const properties = (node.properties ?? {}) as Schema;
      const names = Object.keys(properties);
      const required = (node.required ?? []) as string[];
      if ([...required].sort().join() !== [...names].sort().join()) violations.push(`${at}: required ${JSON.stringify(required)} is not every property`);
      for (const name of names) {
        totals.properties += 1;
        totals.characters += name.length;
        visit(properties[name], `${at}.${name}`, depth + 1);
      }
    }
    if (node.items !== undefined) visit(node.items, `${at}[]`, depth + 1);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, index) => visit(branch, `${at}.anyOf[${index}]`, depth));
    if (node.$defs) for (const [name, definition] of Object.entries(node.$defs as Schema)) visit(definition, `${at}.$defs.${name}`, depth);
  };
  visit(root, "root", 1);
  if (totals.properties > 5000) violations.push(`${totals.properties} properties`);
  if (totals.enumValues > 1000) violations.push(`${totals.enumValues} enum values`);
  if (totals.characters > 120_000) violations.push(`${totals.characters} characters of names and enum values`);
  return violations;
}

/**
 * What a strict model may send: `null` wherever the strict schema allows it
 * (the worst case for originally optional properties), otherwise a small
 * value of the first non-null type.
 */
function strictSample(schema: Schema, fill = false): unknown {
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    return !fill && branches.some((branch) => branch.type === "null") ? null : strictSample(branches.find((branch) => branch.type !== "null")!, fill);
  }
  const types = typeList(schema);
  if (!fill && types.includes("null")) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  switch (types.find((type) => type !== "null")) {
    case "object":
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Schema>).map(([name, property]) => [name, strictSample(property, fill)]),
      );
    case "array":
      return Array.from({ length: Math.max(Number(schema.minItems ?? 0), fill ? 1 : 0) }, () => strictSample(schema.items as Schema, fill));
    case "integer":
    case "number":
      return Math.max(1, Number(schema.minimum ?? 1));
    case "boolean":
      return false;
    default:
      // Strict mode drops minLength and the checks zod runs itself (MemoryManager's slug has >= 3
      // characters, history_date_local is a date): one sample string that every such check accepts.
      return SAMPLE_STRING;
  }
}

const SAMPLE_STRING = "2026-01-02";

describe("OpenAI strict mode over the built-in tools", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "sdk-openai-strict-"));
  let registry: ToolRegistry;
  beforeAll(async () => {
    registry = await buildBuiltinToolRegistry({
      workdir: work,
      dataDir: path.join(work, ".data"),
      runtimeScope: "chat",
      // Both edit tools, so ApplyPatch is checked too.
      editSurface: "both",
      mcp: { getSettings: () => ({ servers: [], selected: [] }) },
    });
  });
  afterAll(async () => {
    await registry.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("turns every built-in tool into a strict tool, in both OpenAI formats", () => {
    const responses = toOpenAIResponsesTools(registry, { strict: true });
    expect(responses.map((tool) => tool.name)).toEqual(registry.tools.map((tool) => tool.name));
    expect(responses.length).toBeGreaterThan(10);
    const chat = toOpenAITools(registry, { strict: true });
    expect(chat.map((tool) => tool.function.parameters)).toEqual(responses.map((tool) => tool.parameters));
  });

  it("gives every built-in tool a schema within OpenAI's documented strict rules", () => {
    const violations = Object.fromEntries(toOpenAIResponsesTools(registry, { strict: true }).map((tool) => [tool.name, strictViolations(tool.parameters)]));
    expect(violations).toEqual(Object.fromEntries(registry.tools.map((tool) => [tool.name, []])));
  });

  for (const [label, fill] of [
    ["null for every optional property", false],
    ["a value for every property", true],
  ] as const) {
    it(`validates what a strict model sends (${label}) for every built-in tool once fromStrictArguments maps it back`, () => {
      for (const tool of toOpenAIResponsesTools(registry, { strict: true })) {
        const original = registry.tools.find((candidate) => candidate.name === tool.name)!.inputSchema;
        const sent = strictSample(tool.parameters, fill);
        const args = fromStrictArguments(original, JSON.stringify(sent)) as Record<string, unknown>;
        for (const key of Object.keys(args)) expect(Object.keys(original.properties ?? {}), `${tool.name}.${key}`).toContain(key);
        const validation = registry.getTool(tool.name)?.inputSchema?.safeParse(args);
        expect(validation?.success, `${tool.name}: ${JSON.stringify(sent)} -> ${JSON.stringify(args)}: ${validation?.error?.message}`).toBe(true);
        // McpManager's env and headers are maps: sent as entry lists, they come back as objects.
        if (fill && tool.name === "McpManager") expect((args.server as Record<string, unknown>).env).toEqual({ [SAMPLE_STRING]: SAMPLE_STRING });
      }
    });
  }
});
