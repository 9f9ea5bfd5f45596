/**
 * End to end: the Responses API's custom and built-in forms of ApplyPatch
 * (`toOpenAIResponsesTools(registry, { applyPatch })`) with the calls a
 * model sends, mapped by `@agent-tools/core/patch` and run by the real
 * ApplyPatch of a built-in registry on a temporary project.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, type ToolRegistry, toOpenAIResponsesTools, toolResultText } from "@agent-tools/core";
import {
  V4A_LARK_GRAMMAR,
  executeResponsesApplyPatchCall,
  fromResponsesApplyPatchCall,
  fromResponsesCustomToolCall,
  toResponsesCustomToolOutput,
} from "@agent-tools/core/patch";
import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-responses-apply-patch-")));
const workdir = path.join(temporary, "project");
const dataDir = path.join(temporary, "data");
const file = (name: string) => path.join(workdir, name);

/** An `apply_patch_call` item as the Responses API returns it. */
function applyPatchCall(callId: string, operation: OpenAI.Responses.ResponseApplyPatchToolCall["operation"]): OpenAI.Responses.ResponseApplyPatchToolCall {
  return { type: "apply_patch_call", id: `apc_${callId}`, call_id: callId, status: "completed", operation };
}

describe("ApplyPatch through the Responses API forms", () => {
  let registry: ToolRegistry;
  beforeAll(async () => {
    fs.mkdirSync(path.join(workdir, "src"), { recursive: true });
    fs.writeFileSync(file("src/app.ts"), "export function main() {\n  start();\n  stop();\n}\n");
    fs.writeFileSync(file("old.txt"), "obsolete\n");
    fs.writeFileSync(file("crlf.txt"), "one\r\ntwo\r\n");
    registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false, editSurface: "apply_patch" });
    for (const name of ["src/app.ts", "old.txt", "crlf.txt"]) {
      const read = await registry.executeToolCall({ id: `read-${name}`, name: "Read", arguments: { path: name } });
      expect(read.isError, toolResultText(read)).toBe(false);
    }
  });
  afterAll(async () => {
    await registry?.close();
    fs.rmSync(temporary, { recursive: true, force: true });
  });

  it("offers the registry's ApplyPatch in each form, and no form of a tool the registry lacks", async () => {
    expect(toOpenAIResponsesTools(registry, { applyPatch: "builtin" }).filter((tool) => tool.type !== "function")).toEqual([{ type: "apply_patch" }]);
    const custom = toOpenAIResponsesTools(registry, { applyPatch: "custom" }).filter((tool) => tool.type === "custom");
    expect(custom).toMatchObject([{ name: "ApplyPatch", format: { type: "grammar", syntax: "lark", definition: V4A_LARK_GRAMMAR } }]);
    expect(toOpenAIResponsesTools(registry).find((tool) => tool.name === "ApplyPatch")).toMatchObject({ type: "function" });
    const editOnly = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "data-edit"), memory: false, editSurface: "edit" });
    try {
      expect(() => toOpenAIResponsesTools(editOnly, { applyPatch: "builtin" })).toThrow(SdkError);
    } finally {
      await editOnly.close();
    }
  });

  it("applies an update_file operation to the file, keeping its other lines", async () => {
    const { output, result } = await executeResponsesApplyPatchCall(
      registry,
      applyPatchCall("u1", { type: "update_file", path: "src/app.ts", diff: "@@ export function main() {\n   start();\n-  stop();\n+  finish();\n" }),
    );
    expect(output, output.output).toMatchObject({ type: "apply_patch_call_output", call_id: "u1", status: "completed" });
    expect(fs.readFileSync(file("src/app.ts"), "utf8")).toBe("export function main() {\n  start();\n  finish();\n}\n");
    expect(result.details).toMatchObject({ kind: "apply_patch", files: [{ path: "src/app.ts", operation: "update" }] });
  });

  it("keeps a CRLF file's line endings", async () => {
    const { output } = await executeResponsesApplyPatchCall(
      registry,
      applyPatchCall("u2", { type: "update_file", path: "crlf.txt", diff: " one\n-two\n+three\n" }),
    );
    expect(output.status, output.output).toBe("completed");
    expect(fs.readFileSync(file("crlf.txt"), "utf8")).toBe("one\r\nthree\r\n");
  });

  it("creates a file from create_file's + lines and deletes one with delete_file", async () => {
    const created = await executeResponsesApplyPatchCall(
      registry,
      applyPatchCall("c1", { type: "create_file", path: "docs/new.md", diff: "+# Title\n+\n+text\n" }),
    );
    expect(created.output.status, created.output.output).toBe("completed");
    expect(fs.readFileSync(file("docs/new.md"), "utf8")).toBe("# Title\n\ntext\n");
    const deleted = await executeResponsesApplyPatchCall(registry, applyPatchCall("d1", { type: "delete_file", path: "old.txt" }));
    expect(deleted.output.status, deleted.output.output).toBe("completed");
    expect(fs.existsSync(file("old.txt"))).toBe(false);
  });

  it("answers a hunk that matches nothing as failed and writes nothing", async () => {
    const before = fs.readFileSync(file("src/app.ts"), "utf8");
    const { output, result } = await executeResponsesApplyPatchCall(
      registry,
      applyPatchCall("f1", { type: "update_file", path: "src/app.ts", diff: "@@\n-  missing();\n+  other();\n" }),
    );
    expect(output.status).toBe("failed");
    expect(result.error?.code).toBe("edit_no_match");
    expect(output.output).toContain("src/app.ts");
    expect(fs.readFileSync(file("src/app.ts"), "utf8")).toBe(before);
  });

  it("answers a diff that would reach a second file as failed, before the registry", async () => {
    const item = applyPatchCall("f2", { type: "update_file", path: "src/app.ts", diff: " start();\n-  finish();\n+  x();\n*** Delete File: crlf.txt\n" });
    expect(() => fromResponsesApplyPatchCall(item)).toThrow(/line 4 of the diff/);
    const { output } = await executeResponsesApplyPatchCall(registry, item);
    expect(output.status).toBe("failed");
    expect(fs.existsSync(file("crlf.txt"))).toBe(true);
  });

  it("runs a custom_tool_call's patch over several files", async () => {
    const input = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: b.txt\n+b\n*** End Patch\n";
    const item: OpenAI.Responses.ResponseCustomToolCall = { type: "custom_tool_call", call_id: "p1", name: "ApplyPatch", input };
    const result = await registry.executeToolCall(fromResponsesCustomToolCall(item));
    const output = toResponsesCustomToolOutput(item.call_id, result);
    expect(result.isError, output.output).toBe(false);
    expect(output.type).toBe("custom_tool_call_output");
    expect([fs.readFileSync(file("a.txt"), "utf8"), fs.readFileSync(file("b.txt"), "utf8")]).toEqual(["a\n", "b\n"]);
  });
});
