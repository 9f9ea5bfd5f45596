import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateText, jsonSchema, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolError } from "../errors.js";
import { defineTool } from "../registry/define-tool.js";
import { type ToolRegistry, createToolRegistry } from "../registry/create-tool-registry.js";
import { toAiSdkToolResultOutput } from "./ai-sdk-tool-output.js";
import { AI_SDK_SCHEMA_SYMBOL, toAiSdkTools } from "./ai-sdk-tools.js";

const metadata = { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" } as const;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const toolCallTurn = (calls: { id: string; name: string; input: string }[]): GenerateResult => ({
  content: calls.map((call) => ({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.input })),
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage,
  warnings: [],
});
const textTurn = (text: string): GenerateResult => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });

describe("toAiSdkTools", () => {
  let workdir: string;
  let registry: ToolRegistry;
  const seenSignals: AbortSignal[] = [];

  beforeAll(async () => {
    workdir = await mkdtemp(path.join(os.tmpdir(), "agent-tools-ai-sdk-"));
    const Add = defineTool({
      name: "Add",
      description: "Adds two integers.",
      inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
      metadata,
      execute: ({ a, b }, context) => {
        seenSignals.push(context.signal);
        return { content: `${a} + ${b} = ${a + b}`, details: { sum: a + b } };
      },
    });
    const Lookup = defineTool({
      name: "Lookup",
      description: "Finds a record.",
      inputSchema: z.object({ key: z.string() }),
      metadata,
      execute: ({ key }) => {
        throw new ToolError("not_found", `No record named ${key}. Use Add instead.`);
      },
    });
    registry = createToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), bundles: [{ id: "math", trusted: true, listTools: () => [Add, Lookup] }] });
  });
  afterAll(async () => {
    await registry.close();
    await rm(workdir, { recursive: true, force: true });
  });

  it("wraps schemas like the AI SDK's jsonSchema() and routes execute to the registry", async () => {
    const tools = toAiSdkTools(registry);
    expect(Object.keys(tools)).toEqual(["Add", "Lookup"]);
    const add = tools.Add!;
    expect(add.description).toBe("Adds two integers.");
    expect(add.inputSchema[AI_SDK_SCHEMA_SYMBOL]).toBe(true);
    expect("validate" in add.inputSchema).toBe(true);
    expect(add.inputSchema.jsonSchema).toEqual(registry.tools[0]!.inputSchema);
    const controller = new AbortController();
    const result = await add.execute({ a: 2, b: 3 }, { toolCallId: "c1", abortSignal: controller.signal });
    expect(result).toEqual({ content: [{ type: "text", text: "2 + 3 = 5" }], details: { sum: 5 }, isError: false });
  });

  it("runs a multi-step generateText loop against the registry", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallTurn([
          { id: "call_1", name: "Add", input: '{"a":20,"b":22}' },
          { id: "call_2", name: "Lookup", input: '{"key":"answer"}' },
          { id: "call_3", name: "Add", input: '{"a":1,"b":2,"c":3}' },
        ]),
        textTurn("The answer is 42."),
      ],
    });
    const events: string[] = [];
    const result = await generateText({
      model,
      prompt: "What is 20 + 22?",
      tools: toAiSdkTools(registry, { jsonSchema, executeOptions: (id) => ({ onEvent: (event) => events.push(`${id}:${event.type}`) }) }),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe("The answer is 42.");
    const secondCall = model.doGenerateCalls[1]!;
    const toolMessage = secondCall.prompt.find((message) => message.role === "tool");
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({ toolCallId: "call_1", toolName: "Add", output: { type: "text", value: "20 + 22 = 42" } }),
      expect.objectContaining({ toolCallId: "call_2", toolName: "Lookup", output: { type: "error-text", value: "No record named answer. Use Add instead." } }),
      expect.objectContaining({
        toolCallId: "call_3",
        toolName: "Add",
        output: { type: "error-text", value: expect.stringContaining("unsupported argument(s): c") },
      }),
    ]);
    expect(model.doGenerateCalls[0]!.tools?.map((tool) => tool.name)).toEqual(["Add", "Lookup"]);
    expect(model.doGenerateCalls[0]!.tools?.[0]).toMatchObject({ type: "function", inputSchema: registry.tools[0]!.inputSchema });
    expect(events).toContain("call_1:tool-call-start");
    expect(events).toContain("call_1:tool-call-end");
  });

  it("passes the AI SDK's abort signal to the tool", async () => {
    seenSignals.length = 0;
    const controller = new AbortController();
    const model = new MockLanguageModelV3({ doGenerate: [toolCallTurn([{ id: "c", name: "Add", input: '{"a":1,"b":1}' }]), textTurn("done")] });
    await generateText({ model, prompt: "x", tools: toAiSdkTools(registry, { jsonSchema }), stopWhen: stepCountIs(2), abortSignal: controller.signal });
    expect(seenSignals).toHaveLength(1);
    expect(seenSignals[0]!.aborted).toBe(false);
    controller.abort();
    expect(seenSignals[0]!.aborted).toBe(true);
  });

  it("renders images as each version's file part and errors as error-text", () => {
    const withImage = {
      content: [
        { type: "text" as const, text: "a.png" },
        { type: "image" as const, data: "iVBOR", mimeType: "image/png" },
      ],
      details: {},
      isError: false,
    };
    const text = { type: "text", text: "a.png" };
    expect(toAiSdkToolResultOutput(withImage, 5)).toEqual({ type: "content", value: [text, { type: "media", data: "iVBOR", mediaType: "image/png" }] });
    expect(toAiSdkToolResultOutput(withImage)).toEqual({ type: "content", value: [text, { type: "file-data", data: "iVBOR", mediaType: "image/png" }] });
    expect(toAiSdkToolResultOutput(withImage, 7)).toEqual({
      type: "content",
      value: [text, { type: "file", data: { type: "data", data: "iVBOR" }, mediaType: "image/png" }],
    });
    expect(toAiSdkToolResultOutput({ ...withImage, isError: true })).toEqual({ type: "error-text", value: "a.png" });
    expect(
      toAiSdkToolResultOutput({
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
        ],
        details: {},
        isError: true,
      }),
    ).toEqual({ type: "error-text", value: "one\ntwo" });
  });

  it("picks the image part from how the AI SDK calls it, or from aiSdkVersion", async () => {
    const output = { content: [{ type: "image" as const, data: "x", mimeType: "image/png" }], details: {}, isError: false };
    const partType = (tools: ReturnType<typeof toAiSdkTools>, argument: Parameters<ReturnType<typeof toAiSdkTools>[string]["toModelOutput"]>[0]) =>
      (tools.Add!.toModelOutput(argument) as { value: { type: string }[] }).value[0]!.type;
    const tools = toAiSdkTools(registry);
    expect(partType(tools, output)).toBe("media");
    expect(partType(tools, { toolCallId: "c", input: {}, output })).toBe("file-data");
    // AI SDK 7 passes `context` to execute.
    await tools.Add!.execute({ a: 1, b: 1 }, { toolCallId: "c7", context: undefined } as never);
    expect(partType(tools, { toolCallId: "c", input: {}, output })).toBe("file");
    expect(partType(toAiSdkTools(registry, { aiSdkVersion: 7 }), { toolCallId: "c", input: {}, output })).toBe("file");
  });

  it("accepts AI SDK 5's toModelOutput(output) call style", () => {
    const tools = toAiSdkTools(registry);
    const output = { content: [{ type: "text" as const, text: "x" }], details: {}, isError: false };
    expect(tools.Add!.toModelOutput(output as never)).toEqual({ type: "text", value: "x" });
    expect(tools.Add!.toModelOutput({ toolCallId: "c", input: {}, output })).toEqual({ type: "text", value: "x" });
  });

  it("enforces the name pattern, configurable per provider", () => {
    const source = { tools: [{ name: "a.b", description: "d", inputSchema: { type: "object" as const } }], executeToolCall: registry.executeToolCall };
    expect(() => toAiSdkTools(source)).toThrow(/AI SDK would reject tool "a.b"/);
    expect(Object.keys(toAiSdkTools(source, { namePattern: /^[a-z.]+$/ }))).toEqual(["a.b"]);
  });

  it("checks the tool-count limit (128 by default, maxTools to change it, skip keeps the first ones)", () => {
    const tools = Array.from({ length: 130 }, (_, index) => ({ name: `T${index}`, description: "d", inputSchema: { type: "object" as const } }));
    const source = { tools, executeToolCall: registry.executeToolCall };
    expect(() => toAiSdkTools(source)).toThrow(/AI SDK accepts at most 128 tools in one request; the registry offers 130/);
    const skipped: string[] = [];
    const kept = toAiSdkTools(source, { invalidTools: "skip", onSkip: (name) => skipped.push(name) });
    expect(Object.keys(kept)).toHaveLength(128);
    expect(skipped).toEqual(["T128", "T129"]);
    expect(Object.keys(toAiSdkTools(source, { maxTools: Number.POSITIVE_INFINITY }))).toHaveLength(130);
    expect(() => toAiSdkTools(source, { maxTools: 10 })).toThrow(/at most 10 tools/);
  });
});
