import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolResult } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-oversized-"));
let registry: Awaited<ReturnType<typeof buildBuiltinToolRegistry>>;
beforeAll(async () => {
  fs.mkdirSync(path.join(temporary, "project"));
  registry = await buildBuiltinToolRegistry({ workdir: path.join(temporary, "project"), dataDir: path.join(temporary, "data") });
});
afterAll(async () => {
  await registry.close();
  fs.rmSync(temporary, { recursive: true, force: true });
});

const text = (result: ToolResult) => result.content.map((block) => (block.type === "text" ? block.text : "")).join("");

/** An array nested `depth` levels deep, built without recursion. */
function nested(depth: number): unknown {
  let value: unknown = "x";
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

describe("built-in tools: adversarial argument values", () => {
  const huge = "p".repeat(5_000_000);

  it("answers a 5 MB path to Read, and a 5 MB enum value to Grep, with a short message", async () => {
    for (const [name, args] of [
      ["Read", { path: huge }],
      ["Read", { path: `sub/${huge}` }],
      ["Grep", { pattern: "x", output_mode: huge }],
    ] as const) {
      const result = await registry.executeToolCall({ id: name, name, arguments: args });
      expect(result.isError).toBe(true);
      expect(text(result).length).toBeLessThan(1_000);
      expect(text(result)).toMatch(/\.\.\.\(500000\d chars\)/);
    }
  });

  it("refuses arguments nested 5,000 levels and BigInt values with invalid_arguments", async () => {
    const deep = await registry.executeToolCall({ id: "1", name: "Edit", arguments: { path: "a", old_string: nested(5_000), new_string: "b" } });
    expect(deep.details).toMatchObject({ code: "invalid_arguments" });
    expect(text(deep)).toMatch(/Edit refused its arguments: they must not be nested more than 64 levels deep.*`old_string\[0\]/);
    const bigint = await registry.executeToolCall({ id: "2", name: "Read", arguments: { path: "a", offset: 1n } });
    expect(bigint.details).toMatchObject({ code: "invalid_arguments" });
    expect(text(bigint)).toMatch(/BigInt.*`offset`/);
  });
});
