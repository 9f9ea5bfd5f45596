import { describe, expect, it } from "vitest";
import type { McpElicitationField, McpElicitationSchema } from "./client-feature-types.js";
import { applyElicitationDefaults, checkElicitationContent, checkElicitationSchema, elicitationValueProblem } from "./elicitation-schema.js";

describe("elicitation forms", () => {
  it("accepts every field kind of the spec's subset", () => {
    expect(
      checkElicitationSchema({
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, maxLength: 20 },
          when: { type: "string", format: "date-time" },
          count: { type: "integer", minimum: 1 },
          ratio: { type: "number", maximum: 1 },
          ok: { type: "boolean", default: false },
          color: { type: "string", oneOf: [{ const: "red", title: "Red" }] },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 2, default: ["a"] },
        },
        required: ["name"],
      }),
    ).toEqual([]);
  });

  it("names what is outside the subset", () => {
    expect(checkElicitationSchema({ type: "array" })).toEqual(['requestedSchema must be an object schema ({ type: "object", properties }).']);
    expect(
      checkElicitationSchema({
        type: "object",
        properties: { a: { type: "object" }, b: { type: "array", items: { type: "number" } }, c: { type: "string", enum: [] } },
      }),
    ).toEqual([
      'field "a" has type "object"; only string, number, integer, boolean and enum fields are allowed (no nested objects).',
      'field "b": an array field must be a multi-select enum (items.enum or items.anyOf of strings).',
      'field "c": enum must be a non-empty list of strings.',
    ]);
    expect(checkElicitationSchema({ type: "object", properties: { n: { type: "integer", default: 1.5 } } })).toEqual([
      'field "n": default must be an integer.',
    ]);
  });

  it("checks string formats and bounds", () => {
    const problem = (field: McpElicitationField, value: unknown) => elicitationValueProblem(field, value);
    expect(problem({ type: "string", format: "email" }, "a@b.co")).toBeUndefined();
    expect(problem({ type: "string", format: "email" }, "a@b")).toBe("must be an email address");
    expect(problem({ type: "string", format: "uri" }, "https://example.com/x")).toBeUndefined();
    expect(problem({ type: "string", format: "uri" }, "example.com")).toBe("must be an absolute URI");
    expect(problem({ type: "string", format: "date" }, "2024-02-29")).toBeUndefined();
    expect(problem({ type: "string", format: "date" }, "2023-02-29")).toBe("must be a date (YYYY-MM-DD)");
    expect(problem({ type: "string", format: "date-time" }, "2026-01-31T09:30:00.5+01:00")).toBeUndefined();
    expect(problem({ type: "string", format: "date-time" }, "2026-01-31 09:30")).toMatch(/^must be a date and time/);
    expect(problem({ type: "string", minLength: 2 }, "é")).toBe("must be at least 2 character(s)");
    expect(problem({ type: "number", minimum: 0, maximum: 1 }, 2)).toBe("must be at most 1");
    expect(problem({ type: "boolean" }, "true")).toBe("must be true or false");
    expect(problem({ type: "array", items: { enum: ["a", "b"] }, minItems: 1 }, [])).toBe("must hold at least 1 value(s)");
    expect(problem({ type: "array", items: { anyOf: [{ const: "a", title: "A" }] } }, ["a", "z"])).toBe("must only hold values of a (not z)");
  });

  it("applies defaults only to fields the answer left out, then checks the answer", () => {
    const schema: McpElicitationSchema = {
      type: "object",
      properties: { a: { type: "string", default: "x" }, b: { type: "boolean", default: true }, c: { type: "integer" } },
      required: ["c"],
    };
    expect(applyElicitationDefaults(schema, { a: "given" })).toEqual({ a: "given", b: true });
    expect(checkElicitationContent(schema, applyElicitationDefaults(schema, { c: 2 }))).toEqual([]);
    expect(checkElicitationContent(schema, applyElicitationDefaults(schema, {}))).toEqual(['required field "c" is missing.']);
  });
});
