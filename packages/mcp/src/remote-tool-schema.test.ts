import { describe, expect, it } from "vitest";
import { coerceMcpInputSchema, coerceMcpRemoteTool } from "./remote-tool-schema.js";

describe("coerceMcpInputSchema", () => {
  it("keeps a valid object schema as it is, with no fixes", () => {
    const schema = { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false };
    expect(coerceMcpInputSchema(schema)).toEqual({ schema, fixes: [] });
  });

  it("treats an absent schema as no arguments, silently", () => {
    expect(coerceMcpInputSchema(undefined)).toEqual({ schema: { type: "object", properties: {} }, fixes: [] });
  });

  it.each([
    ["a string", "anything", /was "anything", not an object/],
    ["null", null, /was null/],
    ["an array", [1], /was an array/],
  ])("turns %s into {type: object}", (_label, raw, fix) => {
    const result = coerceMcpInputSchema(raw);
    expect(result.schema).toEqual({ type: "object", properties: {} });
    expect(result.fixes.join(" ")).toMatch(fix);
  });

  it("adds a missing type and forces another type to object", () => {
    expect(coerceMcpInputSchema({ properties: { q: { type: "string" } } })).toEqual({
      schema: { type: "object", properties: { q: { type: "string" } } },
      fixes: ["type was missing"],
    });
    expect(coerceMcpInputSchema({ type: "array", properties: {} }).schema.type).toBe("object");
  });

  it("drops properties that are not a plain object and then accepts any argument", () => {
    const result = coerceMcpInputSchema({ type: "string", properties: ["query", "limit"] });
    expect(result.schema).toEqual({ type: "object", properties: {}, additionalProperties: true });
    expect(result.fixes).toEqual(['type "string" became "object"', "properties was an array and was dropped, so any argument is accepted"]);
  });

  it("replaces a property schema that is not an object and repairs required", () => {
    expect(coerceMcpInputSchema({ type: "object", properties: { a: { type: "string" }, b: "number", c: true }, required: "a" }).schema).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: {}, c: true },
    });
    expect(coerceMcpInputSchema({ type: "object", properties: { a: {} }, required: ["a", 3] }).schema.required).toEqual(["a"]);
  });

  it("is idempotent", () => {
    for (const raw of [{ type: "string", properties: ["q"] }, "x", { properties: { b: 1 }, required: [1, "b"] }]) {
      const once = coerceMcpInputSchema(raw).schema;
      expect(coerceMcpInputSchema(once)).toEqual({ schema: once, fixes: [] });
    }
  });
});

describe("coerceMcpRemoteTool", () => {
  it("skips only a tool without a usable name", () => {
    expect(coerceMcpRemoteTool({ description: "A tool without a name.", inputSchema: { type: "object" } })).toEqual({
      skipped: 'a tool has no name (description: "A tool without a name."), so it cannot be called',
    });
    expect(coerceMcpRemoteTool({ name: 7 })).toEqual({ skipped: "a tool has the name a number, so it cannot be called" });
    expect(coerceMcpRemoteTool("echo")).toEqual({ skipped: 'a tools/list entry was "echo", not a tool object' });
  });

  it("drops a description, title or annotations of the wrong type and keeps other fields", () => {
    const result = coerceMcpRemoteTool({ name: "t", description: 5, title: ["x"], annotations: "ro", _meta: { a: 1 }, inputSchema: { type: "object" } });
    expect(result).toEqual({ tool: { name: "t", _meta: { a: 1 }, inputSchema: { type: "object" } }, fixes: [] });
  });
});
