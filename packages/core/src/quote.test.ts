import { describe, expect, it } from "vitest";
import { describeType, previewForMessage, quoteForMessage, shortenForMessage } from "./quote.js";

describe("shortenForMessage / quoteForMessage", () => {
  it("keeps short values and cuts long ones to a 200-character prefix with the length", () => {
    expect(shortenForMessage("short")).toBe("short");
    expect(shortenForMessage("x".repeat(200))).toBe("x".repeat(200));
    expect(shortenForMessage("x".repeat(201))).toBe(`${"x".repeat(200)}...(201 chars)`);
    expect(shortenForMessage("a".repeat(300))).toBe(`${"a".repeat(200)}...(300 chars)`);
  });

  it("never splits a surrogate pair", () => {
    expect(shortenForMessage(`${"x".repeat(199)}\u{1F600}`)).toBe(`${"x".repeat(199)}...(201 chars)`);
    expect(shortenForMessage(`${"a".repeat(4)}😀tail`, 5)).toBe("aaaa...(10 chars)");
  });

  it("quoteForMessage wraps the shortened value in double quotes", () => {
    expect(quoteForMessage("src/a.ts")).toBe('"src/a.ts"');
    expect(quoteForMessage("n".repeat(50), 40)).toBe(`"${"n".repeat(40)}...(50 chars)"`);
  });
});

describe("previewForMessage / describeType", () => {
  it("renders JSON, cuts long strings before rendering, and names what JSON cannot express", () => {
    expect(previewForMessage("b".repeat(100), 10)).toBe(`"${"b".repeat(10)}"...(100 chars)`);
    expect(previewForMessage("ok")).toBe('"ok"');
    expect(previewForMessage(10n)).toBe("bigint");
    expect(previewForMessage({ a: 1 })).toBe('{"a":1}');
    expect(previewForMessage(undefined)).toBe("undefined");
    expect(previewForMessage([1, 2, 3, 4], 3)).toBe("[1,...(9 chars)");
  });

  it("describeType names null and arrays apart from objects", () => {
    expect([null, [], {}, 1, "s", 1n].map(describeType)).toEqual(["null", "array", "object", "number", "string", "bigint"]);
  });
});
