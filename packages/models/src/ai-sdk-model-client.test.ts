import { MockLanguageModelV3, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";
import { runModelClientContract } from "./testing/model-client-contract.js";
import type { ModelContractTurn } from "./testing/model-client-contract.js";
import { AiSdkModelClient } from "./index.js";
import { ModelClientError } from "@agent-tools/core";

type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part> ? Part : never;

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

function streamParts(turn: Exclude<ModelContractTurn, { hang: true }>): LanguageModelV3StreamPart[] {
  const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (turn.text) {
    parts.push({ type: "text-start", id: "t" });
    for (const delta of pieces(turn.text, 4)) parts.push({ type: "text-delta", id: "t", delta });
    parts.push({ type: "text-end", id: "t" });
  }
  for (const call of turn.toolCalls ?? []) {
    parts.push({ type: "tool-input-start", id: call.id, toolName: call.name });
    for (const delta of pieces(call.arguments, 5)) parts.push({ type: "tool-input-delta", id: call.id, delta });
    parts.push({ type: "tool-input-end", id: call.id });
    parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments });
  }
  parts.push({ type: "finish", usage, finishReason: { unified: (turn.toolCalls ?? []).length > 0 ? "tool-calls" : "stop", raw: undefined } });
  return parts;
}

/** A mock model that waits for its abort signal and then rejects like a provider does. */
function hangUntilAborted(options: { abortSignal?: AbortSignal }): Promise<never> {
  return new Promise((_resolve, reject) => {
    options.abortSignal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")), { once: true });
  });
}

runModelClientContract({
  name: "AiSdkModelClient (MockLanguageModelV3)",
  create: (turns) => {
    let generateIndex = 0;
    let streamIndex = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        const turn = turns[generateIndex++];
        if (!turn) throw new Error("no more turns");
        if ("hang" in turn) return hangUntilAborted(options);
        return {
          content: [
            ...(turn.text ? [{ type: "text" as const, text: turn.text }] : []),
            ...(turn.toolCalls ?? []).map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.arguments })),
          ],
          finishReason: { unified: (turn.toolCalls ?? []).length > 0 ? ("tool-calls" as const) : ("stop" as const), raw: undefined },
          usage,
          warnings: [],
        };
      },
      doStream: async (options) => {
        const turn = turns[streamIndex++];
        if (!turn) throw new Error("no more turns");
        if ("hang" in turn) {
          // Starts a stream, then never sends another part.
          return {
            stream: new ReadableStream<LanguageModelV3StreamPart>({ start: (controller) => controller.enqueue({ type: "stream-start", warnings: [] }) }),
          };
        }
        void options;
        return { stream: simulateReadableStream({ chunks: streamParts(turn), chunkDelayInMs: null }) };
      },
    });
    return { client: new AiSdkModelClient(model) };
  },
});

describe("AiSdkModelClient", () => {
  it("converts messages and tools into the provider prompt", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: { content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] },
    });
    const client = new AiSdkModelClient(model, { providerOptions: { openai: { parallelToolCalls: false } } });
    const response = await client.generate({
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: "Let me look.",
          toolCalls: [
            { id: "c1", name: "Read", arguments: '{"path":"a"}' },
            { id: "c2", name: "Read", arguments: "{bad" },
          ],
        },
        { role: "tool", toolCallId: "c1", toolName: "Read", content: "text" },
        { role: "tool", toolCallId: "c2", toolName: "Read", content: "bad JSON", isError: true },
      ],
      tools: [{ name: "Read", description: "Reads.", inputSchema: { type: "object", properties: {} } }],
      maxOutputTokens: 50,
      temperature: 0.2,
    });
    expect(response).toEqual({ text: "ok", toolCalls: [], finishReason: "stop", usage: { inputTokens: 7, outputTokens: 3 } });
    const call = model.doGenerateCalls[0]!;
    expect(call.prompt).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "Read", input: { path: "a" } },
          { type: "tool-call", toolCallId: "c2", toolName: "Read", input: "{bad" },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "Read", output: { type: "text", value: "text" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c2", toolName: "Read", output: { type: "error-text", value: "bad JSON" } }] },
    ]);
    expect(call.tools).toEqual([{ type: "function", name: "Read", description: "Reads.", inputSchema: { type: "object", properties: {} } }]);
    expect(call.toolChoice).toEqual({ type: "auto" });
    expect(call.maxOutputTokens).toBe(50);
    expect(call.temperature).toBe(0.2);
    expect(call.providerOptions).toEqual({ openai: { parallelToolCalls: false } });
    expect(client.id).toBe("mock-provider:mock-model-id");
  });

  it("leaves out tools the provider executed and reads V2-style finish reasons and usage", async () => {
    const v2Model = {
      specificationVersion: "v2",
      provider: "legacy",
      modelId: "m2",
      doGenerate: async () => ({
        content: [
          { type: "tool-call", toolCallId: "web", toolName: "web_search", input: "{}", providerExecuted: true },
          { type: "text", text: "Found it." },
        ],
        finishReason: "length",
        usage: { inputTokens: 4, outputTokens: 9 },
      }),
      doStream: async () => ({ stream: new ReadableStream() }),
    };
    const response = await new AiSdkModelClient(v2Model).generate({ messages: [{ role: "user", content: "q" }] });
    expect(response).toEqual({ text: "Found it.", toolCalls: [], finishReason: "length", usage: { inputTokens: 4, outputTokens: 9 } });
  });

  it("keeps a streamed tool call whose closing part never came, with its assembled input", async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: "tool-input-start", id: "c9", toolName: "Edit" },
            { type: "tool-input-delta", id: "c9", delta: '{"path":' },
            { type: "tool-input-delta", id: "c9", delta: '"a.ts"' },
            { type: "finish", usage, finishReason: { unified: "length", raw: "length" } },
          ],
          chunkDelayInMs: null,
        }),
      },
    });
    const response = await new AiSdkModelClient(model, { stream: true }).generate({ messages: [] });
    expect(response.toolCalls).toEqual([{ id: "c9", name: "Edit", arguments: '{"path":"a.ts"' }]);
    expect(response.finishReason).toBe("tool-calls");
  });

  it("reports an error part of the stream as provider_error", async () => {
    const model = new MockLanguageModelV3({
      doStream: {
        stream: simulateReadableStream<LanguageModelV3StreamPart>({
          chunks: [
            { type: "text-delta", id: "t", delta: "par" },
            { type: "error", error: new Error("overloaded_error: Overloaded") },
          ],
          chunkDelayInMs: null,
        }),
      },
    });
    const error = (await new AiSdkModelClient(model, { stream: true }).generate({ messages: [] }).catch((reason: unknown) => reason)) as ModelClientError;
    expect(error).toBeInstanceOf(ModelClientError);
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("Overloaded");
  });

  it("passes provider errors through unchanged", async () => {
    const failure = Object.assign(new Error("Invalid API key"), { statusCode: 401 });
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        throw failure;
      },
    });
    await expect(new AiSdkModelClient(model).generate({ messages: [] })).rejects.toBe(failure);
  });

  it("refuses a model id string", () => {
    expect(() => new AiSdkModelClient("openai/gpt-4o" as never)).toThrow(/LanguageModel object/);
  });
});
