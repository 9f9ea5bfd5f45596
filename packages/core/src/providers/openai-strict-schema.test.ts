import { describe, expect, it } from "vitest";
import type { JsonSchemaObject } from "../types.js";
import { fromStrictArguments, toOpenAIStrictSchema } from "./openai-strict-schema.js";

const nested: JsonSchemaObject = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  title: "Input",
  properties: {
    path: { type: "string", minLength: 1, maxLength: 200, default: "a", format: "uri", description: "Where." },
    when: { type: "string", format: "date-time" },
    mode: { type: "string", enum: ["fast", "slow"] },
    limit: { type: "integer", minimum: 1, maximum: 10, exclusiveMaximum: 11, multipleOf: 1, examples: [3] },
    options: {
      type: "object",
      properties: { deep: { type: "boolean" }, tags: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true } },
      required: ["deep"],
    },
    edits: {
      type: "array",
      items: {
        type: "object",
        properties: { old: { type: "string" }, new: { type: "string" }, all: { type: "boolean", default: false } },
        required: ["old", "new"],
      },
    },
    target: { anyOf: [{ type: "string" }, { type: "number" }] },
    choice: { oneOf: [{ const: "a" }, { const: "b" }], description: "One of two." },
  },
  required: ["path", "edits"],
};

describe("toOpenAIStrictSchema", () => {
  it("requires every property, makes the optional ones nullable, closes objects and drops unsupported keywords, recursively", () => {
    const result = toOpenAIStrictSchema(nested);
    expect(result.problem).toBeUndefined();
    expect(result.schema).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "Where." },
        when: { type: ["string", "null"], format: "date-time" },
        mode: { type: ["string", "null"], enum: ["fast", "slow", null] },
        limit: { type: ["integer", "null"], minimum: 1, maximum: 10, exclusiveMaximum: 11, multipleOf: 1 },
        options: {
          type: ["object", "null"],
          properties: { deep: { type: "boolean" }, tags: { type: ["array", "null"], items: { type: "string" }, minItems: 1 } },
          required: ["deep", "tags"],
          additionalProperties: false,
        },
        edits: {
          type: "array",
          items: {
            type: "object",
            properties: { old: { type: "string" }, new: { type: "string" }, all: { type: ["boolean", "null"] } },
            required: ["old", "new", "all"],
            additionalProperties: false,
          },
        },
        target: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
        choice: { description: "One of two.", anyOf: [{ const: "a" }, { const: "b" }, { type: "null" }] },
      },
      required: ["path", "when", "mode", "limit", "options", "edits", "target", "choice"],
      additionalProperties: false,
    });
  });

  it("transforms definitions and wraps an optional $ref in anyOf", () => {
    const result = toOpenAIStrictSchema({
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { name: { type: "string" } } } },
    });
    expect(result.schema).toEqual({
      type: "object",
      properties: { node: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } },
      required: ["node"],
      additionalProperties: false,
      $defs: { node: { type: "object", properties: { name: { type: ["string", "null"] } }, required: ["name"], additionalProperties: false } },
    });
  });

  it("sends a map as a list of key/value entries", () => {
    const result = toOpenAIStrictSchema({
      type: "object",
      properties: { env: { type: "object", description: "Variables.", additionalProperties: { type: "string" } } },
    });
    expect(result.schema!.properties!.env).toEqual({
      type: ["array", "null"],
      description: "Variables. A list of { key, value } entries.",
      items: {
        type: "object",
        properties: { key: { type: "string" }, value: { type: "string" } },
        required: ["key", "value"],
        additionalProperties: false,
      },
    });
  });

  it("does not touch the schema it is given", () => {
    const copy = JSON.parse(JSON.stringify(nested));
    toOpenAIStrictSchema(nested);
    expect(nested).toEqual(copy);
  });

  const unrepresentable: [string, JsonSchemaObject, RegExp][] = [
    ["a root anyOf", { type: "object", anyOf: [{ required: ["a"] }] }, /anyOf at the root/],
    ["an allOf", { type: "object", properties: { a: { allOf: [{ type: "string" }] } } }, /input\.a uses "allOf"/],
    ["a free-form object", { type: "object", properties: { a: { type: "object" } } }, /input\.a is a free-form object/],
    ["an untyped property", { type: "object", properties: { a: {} } }, /input\.a has no type/],
    ["a tuple", { type: "object", properties: { a: { type: "array", items: [{ type: "string" }] } } }, /input\.a is a tuple/],
  ];
  for (const [label, schema, message] of unrepresentable) {
    it(`reports ${label} as having no strict form`, () => {
      expect(toOpenAIStrictSchema(schema).problem).toMatch(message);
    });
  }

  it("enforces the documented nesting and size limits", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 11; level += 1) deep = { type: "object", properties: { inner: deep }, required: ["inner"] };
    expect(toOpenAIStrictSchema(deep as JsonSchemaObject).problem).toMatch(/deeper than 10 levels/);
    const wide = Object.fromEntries(Array.from({ length: 5001 }, (_, index) => [`p${index}`, { type: "string" }]));
    expect(toOpenAIStrictSchema({ type: "object", properties: wide }).problem).toMatch(/5001 object properties/);
    const enumValues = Array.from({ length: 1001 }, (_, index) => `v${index}`);
    expect(toOpenAIStrictSchema({ type: "object", properties: { a: { type: "string", enum: enumValues } } }).problem).toMatch(/1001 enum values/);
  });
});

describe("fromStrictArguments", () => {
  it("removes nulls for originally optional properties, nested and in arrays, and keeps the rest", () => {
    const sent = {
      path: "a.txt",
      when: null,
      mode: null,
      limit: 3,
      options: { deep: true, tags: null },
      edits: [{ old: "x", new: "y", all: null }],
      target: null,
      choice: "a",
    };
    expect(fromStrictArguments(nested, sent)).toEqual({ path: "a.txt", limit: 3, options: { deep: true }, edits: [{ old: "x", new: "y" }], choice: "a" });
    expect(sent.when).toBeNull();
  });

  it("keeps a null the original schema accepts, and a null for a required property (validation reports it)", () => {
    const schema: JsonSchemaObject = { type: "object", properties: { a: { type: ["string", "null"] }, b: { type: "string" } }, required: ["b"] };
    expect(fromStrictArguments(schema, { a: null, b: null })).toEqual({ a: null, b: null });
  });

  it("turns map entries back into a map", () => {
    const schema: JsonSchemaObject = { type: "object", properties: { env: { type: "object", additionalProperties: { type: "string" } } } };
    expect(
      fromStrictArguments(schema, {
        env: [
          { key: "A", value: "1" },
          { key: "B", value: "2" },
        ],
      }),
    ).toEqual({ env: { A: "1", B: "2" } });
    expect(fromStrictArguments(schema, { env: null })).toEqual({});
    expect(fromStrictArguments(schema, { env: ["A=1"] })).toEqual({ env: ["A=1"] });
  });

  it("follows $defs references and parses JSON text", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      properties: { node: { $ref: "#/$defs/node" } },
      $defs: { node: { type: "object", properties: { name: { type: "string" } } } },
    };
    expect(fromStrictArguments(schema, '{"node":{"name":null}}')).toEqual({ node: {} });
    expect(fromStrictArguments(schema, "not json")).toBe("not json");
  });
});
