/**
 * ApplyPatch in the OpenAI Responses API: the three forms
 * toOpenAIResponsesTools offers it in, and the custom and built-in calls
 * mapped to ToolCalls and answered. The registry here has a stand-in
 * ApplyPatch that records the patches it gets (the real tool lives in
 * tools-fs; the sdk's openai-responses-apply-patch test runs it on files).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { SdkError, ToolError } from "../errors.js";
import { V4A_LARK_GRAMMAR } from "../patch/lark-grammar.js";
import { parseV4APatch } from "../patch/parse-v4a.js";
import { type ToolRegistry, createToolRegistry } from "../registry/create-tool-registry.js";
import { defineTool } from "../registry/define-tool.js";
import {
  executeResponsesApplyPatchCall,
  fromResponsesApplyPatchCall,
  fromResponsesCustomToolCall,
  toResponsesApplyPatchOutput,
  toResponsesCustomToolOutput,
} from "./openai-responses-apply-patch.js";
import { type OpenAIResponsesApplyPatchForm, toOpenAIResponsesTools } from "./openai-responses-tools.js";

const metadata = { groupId: "fs", kind: "edit", isReadOnly: false, displayCategory: "file" } as const;

function createRecordingApplyPatch(received: string[]) {
  return defineTool({
    name: "ApplyPatch",
    description: "Edit files with a V4A patch in `patch`.",
    inputSchema: z.object({ patch: z.string().describe("The whole patch.") }),
    metadata,
    execute: ({ patch }) => {
      received.push(patch);
      const { operations } = parseV4APatch(patch);
      return { content: operations.map((operation) => `${operation.kind} ${operation.path}`).join("\n") };
    },
  });
}

const Echo = defineTool({
  name: "Echo",
  description: "Returns its text.",
  inputSchema: z.object({ text: z.string() }),
  metadata: { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" },
  execute: ({ text }) => ({ content: text }),
});

describe("ApplyPatch in the OpenAI Responses API", () => {
  let workdir: string;
  let registry: ToolRegistry;
  let bare: ToolRegistry;
  const received: string[] = [];
  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-responses-apply-patch-"));
    const tools = [Echo, createRecordingApplyPatch(received)];
    registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [{ id: "t", trusted: true, listTools: () => tools }] });
    bare = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data-bare"), bundles: [{ id: "t", trusted: true, listTools: () => [Echo] }] });
  });
  afterAll(async () => {
    await registry.close();
    await bare.close();
    await rm(workdir, { recursive: true, force: true });
  });

  it("offers ApplyPatch as a function tool by default, as before", () => {
    const tools = toOpenAIResponsesTools(registry);
    expect(tools.map((tool) => [tool.type, tool.name])).toEqual([
      ["function", "Echo"],
      ["function", "ApplyPatch"],
    ]);
    expect(toOpenAIResponsesTools(registry, { applyPatch: "function" })).toEqual(tools);
    expect(tools[1]).toMatchObject({ parameters: { properties: { patch: { type: "string" } }, required: ["patch"] }, strict: false });
  });

  it("offers ApplyPatch as a custom tool with the V4A Lark grammar", () => {
    const tools = toOpenAIResponsesTools(registry, { applyPatch: "custom", strict: true });
    expect(tools[0]).toMatchObject({ type: "function", name: "Echo", strict: true });
    expect(tools[1]).toEqual({
      type: "custom",
      name: "ApplyPatch",
      description:
        'Edit files with a V4A patch in `patch`.\n\nThis is a free-form tool: send the patch text itself ("*** Begin Patch" ... "*** End Patch"), not JSON.',
      format: { type: "grammar", syntax: "lark", definition: V4A_LARK_GRAMMAR },
    });
  });

  it("offers ApplyPatch as the built-in apply_patch tool", () => {
    const tools = toOpenAIResponsesTools(registry, { applyPatch: "builtin" });
    expect(tools).toEqual([
      { type: "function", name: "Echo", description: "Returns its text.", parameters: expect.any(Object), strict: false },
      { type: "apply_patch" },
    ]);
  });

  it("gives the openai package's Tool type for every form", () => {
    const form: OpenAIResponsesApplyPatchForm = "custom";
    const tools: OpenAI.Responses.Tool[] = [
      ...toOpenAIResponsesTools(registry),
      ...toOpenAIResponsesTools(registry, { applyPatch: form }),
      ...toOpenAIResponsesTools(registry, { applyPatch: "builtin" }),
    ];
    expect(tools).toHaveLength(6);
  });

  it("refuses custom and builtin without ApplyPatch in the registry, naming the option", () => {
    for (const form of ["custom", "builtin"] as const) {
      expect(() => toOpenAIResponsesTools(bare, { applyPatch: form })).toThrow(SdkError);
      expect(() => toOpenAIResponsesTools(bare, { applyPatch: form })).toThrow(
        `toOpenAIResponsesTools: applyPatch "${form}" offers the ApplyPatch tool, but the tools given have none.`,
      );
    }
    expect(toOpenAIResponsesTools(bare, { applyPatch: "function" })).toHaveLength(1);
  });

  it("refuses a misspelt form with the closest one", () => {
    const misspelt = { applyPatch: "custm" } as unknown as { applyPatch: OpenAIResponsesApplyPatchForm };
    let thrown: unknown;
    try {
      toOpenAIResponsesTools(registry, misspelt);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SdkError);
    expect((thrown as SdkError).code).toBe("invalid_options");
    expect((thrown as SdkError).message).toBe(
      'toOpenAIResponsesTools: applyPatch "custm" is not one of "function", "custom", "builtin". Did you mean "custom"?',
    );
    expect(() => toOpenAIResponsesTools(registry, { applyPatch: "Builtin" } as never)).toThrow('Did you mean "builtin"?');
  });

  it("runs a custom_tool_call's input as the patch and answers with custom_tool_call_output", async () => {
    const patch = "*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n";
    const item: OpenAI.Responses.ResponseCustomToolCall = { type: "custom_tool_call", call_id: "call_1", name: "ApplyPatch", input: patch };
    const call = fromResponsesCustomToolCall(item);
    expect(call).toEqual({ id: "call_1", name: "ApplyPatch", arguments: { patch } });
    const result = await registry.executeToolCall(call);
    expect(received.at(-1)).toBe(patch);
    const output: OpenAI.Responses.ResponseCustomToolCallOutput = toResponsesCustomToolOutput("call_1", result);
    expect(output).toEqual({ type: "custom_tool_call_output", call_id: "call_1", output: "delete old.txt" });
    expect(() => fromResponsesCustomToolCall({ ...item, name: "Other" })).toThrow(SdkError);
  });

  it("maps an apply_patch_call's operation to an ApplyPatch call and its result to apply_patch_call_output", async () => {
    const item: OpenAI.Responses.ResponseApplyPatchToolCall = {
      type: "apply_patch_call",
      id: "apc_1",
      call_id: "call_2",
      status: "completed",
      operation: { type: "create_file", path: "src/new.ts", diff: "+a\n+b\n" },
    };
    const call = fromResponsesApplyPatchCall(item);
    expect(call).toEqual({ id: "call_2", name: "ApplyPatch", arguments: { patch: "*** Begin Patch\n*** Add File: src/new.ts\n+a\n+b\n*** End Patch\n" } });
    const output: OpenAI.Responses.ResponseInputItem.ApplyPatchCallOutput = toResponsesApplyPatchOutput(item.call_id, await registry.executeToolCall(call));
    expect(output).toEqual({ type: "apply_patch_call_output", call_id: "call_2", status: "completed", output: "add src/new.ts" });
  });

  it("answers a failed result as failed", async () => {
    const { output, result } = await executeResponsesApplyPatchCall(registry, {
      call_id: "call_3",
      operation: { type: "update_file", path: "a.txt", diff: "@@\n x\n" },
    });
    expect(result.isError).toBe(true);
    expect(output).toMatchObject({ type: "apply_patch_call_output", call_id: "call_3", status: "failed" });
    expect(output.output).toContain("changes nothing");
  });

  it("answers an operation no patch expresses as failed, without reaching the registry", async () => {
    const before = received.length;
    const item = { call_id: "call_4", operation: { type: "update_file", path: "a.txt", diff: "-x\n+y\n*** Add File: b.txt\n+z\n" } } as const;
    expect(() => fromResponsesApplyPatchCall(item)).toThrow(ToolError);
    const { output, result } = await executeResponsesApplyPatchCall(registry, item);
    expect(received.length).toBe(before);
    expect(result.error).toMatchObject({ code: "invalid_arguments", recoverable: true });
    expect(result.details).toEqual({ path: "a.txt", operation: "update_file", diffLine: 3 });
    expect(output).toEqual({
      type: "apply_patch_call_output",
      call_id: "call_4",
      status: "failed",
      output: expect.stringContaining('update_file a.txt: line 3 of the diff ("*** Add File: b.txt") does not fit'),
    });
  });
});
