import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError } from "../errors.js";
import type { ToolResult } from "../types.js";
import { defineTool } from "./define-tool.js";
import { type ToolRegistry, createToolRegistry } from "./create-tool-registry.js";

const meta = { groupId: "test", kind: "read", isReadOnly: true, displayCategory: "file" } as const;

const EditLike = defineTool({
  name: "EditLike",
  description: "Takes a path, two strings and a mode.",
  inputSchema: z.object({
    path: z.string(),
    old_string: z.string().optional(),
    new_string: z.string().optional(),
    mode: z.enum(["exact", "fuzzy"]).optional(),
  }),
  metadata: meta,
  execute: ({ path: target }) => ({ content: `edited ${target}` }),
});

const Loose = defineTool({
  name: "Loose",
  description: "Accepts anything.",
  inputSchema: z.object({ value: z.unknown().optional() }),
  metadata: meta,
  execute: () => ({ content: "accepted" }),
});

const Streaming = defineTool({
  name: "Streaming",
  description: "Streams one update.",
  inputSchema: z.object({}),
  metadata: meta,
  execute: (_input, context) => {
    context.onUpdate({ text: "tick" });
    return { content: context.signal.aborted ? "aborted" : "done" };
  },
});

function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** An array nested `depth` levels deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

let workdir: string;
let registry: ToolRegistry;
beforeEach(() => {
  workdir = mkdtempSync(path.join(os.tmpdir(), "registry-edges-"));
  registry = createToolRegistry({
    workdir,
    dataDir: path.join(workdir, ".data"),
    bundles: [{ id: "t", trusted: true, listTools: () => [EditLike, Loose, Streaming] }],
  });
});
afterEach(async () => {
  await registry.close();
  rmSync(workdir, { recursive: true, force: true });
});

describe("executeToolCall: argument depth and size limits", () => {
  it("refuses an argument nested 5,000 levels with invalid_arguments naming the limit and where", async () => {
    for (const args of [{ path: "a", old_string: nested(5_000) }, { path: "a", mode: nested(5_000) }, { value: nested(100_000) }]) {
      const name = "value" in args ? "Loose" : "EditLike";
      const result = await registry.executeToolCall({ id: "1", name, arguments: args });
      expect(result.isError).toBe(true);
      expect(result.details).toMatchObject({ code: "invalid_arguments" });
      expect(text(result)).toMatch(/must not be nested more than 64 levels deep/);
      expect(text(result)).toMatch(/exceeded at `(old_string|mode|value)\[0\]\[0\]/);
      expect(text(result).length).toBeLessThan(500);
    }
  });

  it("accepts 64 levels and refuses 65", async () => {
    expect((await registry.executeToolCall({ id: "1", name: "Loose", arguments: { value: nested(63) } })).isError).toBe(false);
    expect(text(await registry.executeToolCall({ id: "2", name: "Loose", arguments: { value: nested(64) } }))).toMatch(/64 levels/);
  });

  it("refuses a JSON string nested 100,000 levels clearly", async () => {
    const deep = `{"path":"a","old_string":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const result = await registry.executeToolCall({ id: "1", name: "EditLike", arguments: deep });
    expect(result.details).toMatchObject({ code: "invalid_arguments" });
    expect(text(result)).toMatch(/EditLike (refused its arguments: they must not be nested more than 64 levels|received JSON arguments nested too deeply)/);
  });

  it("refuses more than 100,000 values without walking them all", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Loose", arguments: { value: new Array(5_000_000).fill(1) } });
    expect(result.details).toMatchObject({ code: "invalid_arguments" });
    expect(text(result)).toMatch(/must not hold more than 100000 values .* exceeded at `value`/);
  });

  it("refuses BigInt, functions, symbols, non-finite numbers and class instances, naming the argument", async () => {
    const cases: Array<[unknown, RegExp]> = [
      [10n, /contain a BigInt, which JSON cannot express; exceeded at `value`/],
      [{ inner: [() => 1] }, /contain a function, .*`value\.inner\[0\]`/],
      [Symbol("s"), /contain a symbol/],
      [Number.POSITIVE_INFINITY, /contain the number Infinity/],
      [new Date(0), /contain a Date object/],
      [new Map(), /contain a Map object/],
    ];
    for (const [value, pattern] of cases) {
      const result = await registry.executeToolCall({ id: "1", name: "Loose", arguments: { value } });
      expect(result.details).toMatchObject({ code: "invalid_arguments" });
      expect(text(result)).toMatch(pattern);
    }
    const inPath = await registry.executeToolCall({ id: "2", name: "EditLike", arguments: { path: 1n } });
    expect(text(inPath)).toMatch(/BigInt.*`path`/);
  });

  it("still accepts absent optional arguments and null-prototype objects", async () => {
    expect((await registry.executeToolCall({ id: "1", name: "EditLike", arguments: { path: "a", mode: undefined } })).isError).toBe(false);
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { path: "a" });
    expect((await registry.executeToolCall({ id: "2", name: "EditLike", arguments: bare })).isError).toBe(false);
  });
});

describe("executeToolCall: oversized values are quoted, not echoed", () => {
  const huge = "x".repeat(5_000_000);

  it("quotes at most a prefix of a 5 MB enum value, unknown key and tool name", async () => {
    const enumResult = await registry.executeToolCall({ id: "1", name: "EditLike", arguments: { path: "a", mode: huge } });
    expect(text(enumResult)).toMatch(/`mode` must be one of "exact", "fuzzy" \(got "x+"\.\.\.\(5000000 chars\)\)/);
    const keyResult = await registry.executeToolCall({ id: "2", name: "EditLike", arguments: { path: "a", [huge]: 1 } });
    expect(text(keyResult)).toMatch(/unsupported argument\(s\): x+\.\.\.\(5000000 chars\)/);
    const nameResult = await registry.executeToolCall({ id: "3", name: huge, arguments: {} });
    expect(text(nameResult)).toMatch(/^Unknown tool: x+\.\.\.\(5000000 chars\)\. Available tools: EditLike, Loose, Streaming\.$/);
    const typeResult = await registry.executeToolCall({ id: "4", name: "EditLike", arguments: { path: ["y".repeat(5_000_000)] } });
    for (const result of [enumResult, keyResult, nameResult, typeResult]) expect(text(result).length).toBeLessThan(1_000);
  });

  it("lists at most 10 validation problems and counts the rest", async () => {
    const manyKeys = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`k${index}`, index]));
    const result = await registry.executeToolCall({ id: "1", name: "EditLike", arguments: { path: "a", ...manyKeys } });
    expect(text(result)).toMatch(/k0, k1, .*k9 and 490 more\./);
  });
});

describe("executeToolCall: option and argument edges of the contract", () => {
  it("treats null options as none", async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Streaming", arguments: {} }, null);
    expect(result).toMatchObject({ isError: false, content: [{ type: "text", text: "done" }] });
  });

  it("rejects a signal that is not an AbortSignal, and non-function listeners, with SdkError invalid_options", async () => {
    const call = { id: "1", name: "Streaming", arguments: {} };
    for (const options of [{ signal: {} }, { signal: "abort" }, { onUpdate: "print" }, { onEvent: 1 }, 5, "options"]) {
      const attempt = registry.executeToolCall(call, options as never);
      await expect(attempt).rejects.toBeInstanceOf(SdkError);
      await expect(attempt).rejects.toMatchObject({ code: "invalid_options" });
    }
    await expect(registry.executeToolCall(call, { signal: {} } as never)).rejects.toThrow(/`signal` must be an AbortSignal/);
    await expect(registry.executeToolCall(call, { onUpdate: "print" } as never)).rejects.toThrow(/`onUpdate` must be a function/);
  });

  it("accepts null members and a signal-shaped object from another realm", async () => {
    const call = { id: "1", name: "Streaming", arguments: {} };
    expect((await registry.executeToolCall(call, { signal: null, onUpdate: null } as never)).isError).toBe(false);
    const foreign = { aborted: false, addEventListener: () => undefined, removeEventListener: () => undefined };
    expect((await registry.executeToolCall(call, { signal: foreign as unknown as AbortSignal })).isError).toBe(false);
  });

  it('accepts the JSON text "null" as no arguments', async () => {
    const result = await registry.executeToolCall({ id: "1", name: "Streaming", arguments: "null" });
    expect(result.isError).toBe(false);
    expect(text(await registry.executeToolCall({ id: "2", name: "Streaming", arguments: " null " }))).toBe("done");
  });
});
