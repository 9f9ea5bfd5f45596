import { describe, expect, it } from "vitest";
import { toMcpCallResult, toStructuredContent } from "./result-mapping.js";
import { toolAnnotations } from "./tool-list.js";

describe("toMcpCallResult", () => {
  it("maps text and image blocks, isError and JSON details", () => {
    const result = toMcpCallResult({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      details: { path: "a.md", lines: [1, 2], nested: { ok: true, none: null }, dropped: undefined },
      isError: false,
    });
    expect(result).toEqual({
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      isError: false,
      structuredContent: { path: "a.md", lines: [1, 2], nested: { ok: true, none: null } },
    });
  });

  it("leaves out details that are empty or would not survive a JSON round trip", () => {
    expect(toMcpCallResult({ content: [{ type: "text", text: "no" }], details: {}, isError: true })).toEqual({
      content: [{ type: "text", text: "no" }],
      isError: true,
    });
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    for (const details of [
      undefined,
      null,
      "text",
      [1, 2],
      new Map([["a", 1]]),
      { when: new Date(0) },
      { big: 1n },
      { infinite: Number.POSITIVE_INFINITY },
      { run: () => undefined },
      { list: [undefined] },
      cyclic,
    ]) {
      expect(toStructuredContent(details)).toBeUndefined();
    }
    const shared = { x: 1 };
    expect(toStructuredContent({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });
});

describe("toolAnnotations", () => {
  it("says what the metadata says and nothing more", () => {
    expect(toolAnnotations({ groupId: "fs", kind: "read", isReadOnly: true, displayCategory: "file" })).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(toolAnnotations({ groupId: "fs", kind: "delete", isReadOnly: false, displayCategory: "file" })).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(toolAnnotations({ groupId: "task", kind: "task", isReadOnly: false, displayCategory: "system" })).toEqual({ readOnlyHint: false });
    expect(toolAnnotations({ groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId: "x" })).toEqual({
      readOnlyHint: false,
      openWorldHint: true,
    });
    expect(toolAnnotations(undefined)).toBeUndefined();
  });
});
