import { describe, expect, it } from "vitest";
import { runModelClientContract } from "./testing/model-client-contract.js";
import { ModelClientError } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";

runModelClientContract({
  name: "ScriptedModelClient",
  create: (turns) => ({
    client: new ScriptedModelClient({
      responses: turns.map((turn) => ("hang" in turn ? () => new Promise<never>(() => undefined) : turn)),
      textDeltaSize: 5,
    }),
  }),
});

describe("ScriptedModelClient", () => {
  it("records every request with a copy of its messages", async () => {
    const model = new ScriptedModelClient(["one", "two"]);
    const messages = [{ role: "user" as const, content: "hi" }];
    await model.generate({ messages });
    messages.push({ role: "user", content: "again" });
    await model.generate({ messages, tools: [{ name: "T", description: "d", inputSchema: { type: "object" } }] });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]!.messages).toEqual([{ role: "user", content: "hi" }]);
    expect(model.requests[1]!.tools?.map((tool) => tool.name)).toEqual(["T"]);
    expect(model.remaining).toBe(0);
  });

  it("answers from a function of the request and the turn", async () => {
    const model = new ScriptedModelClient({
      respond: (request, turn) => ({ text: `turn ${turn}: ${request.messages.at(-1)?.content}` }),
    });
    expect((await model.generate({ messages: [{ role: "user", content: "a" }] })).text).toBe("turn 0: a");
    expect((await model.generate({ messages: [{ role: "user", content: "b" }] })).text).toBe("turn 1: b");
  });

  it("serialises object arguments and invents stable call ids", async () => {
    const model = new ScriptedModelClient([{ toolCalls: [{ name: "TaskList", arguments: { status: "open" } }, { name: "TaskList" }] }]);
    const response = await model.generate({ messages: [] });
    expect(response.toolCalls).toEqual([
      { id: "call_1_1", name: "TaskList", arguments: '{"status":"open"}' },
      { id: "call_1_2", name: "TaskList", arguments: "{}" },
    ]);
    expect(response.finishReason).toBe("tool-calls");
  });

  it("keeps a scripted finish reason and usage", async () => {
    const model = new ScriptedModelClient([{ text: "cut", finishReason: "length", usage: { inputTokens: 3, outputTokens: 1 } }]);
    expect(await model.generate({ messages: [] })).toEqual({ text: "cut", toolCalls: [], finishReason: "length", usage: { inputTokens: 3, outputTokens: 1 } });
  });

  it("rejects with a scripted error", async () => {
    const model = new ScriptedModelClient([{ error: new Error("rate limited") }]);
    await expect(model.generate({ messages: [] })).rejects.toThrow("rate limited");
  });

  it("rejects with script_exhausted past the script", async () => {
    const model = new ScriptedModelClient({ responses: ["only"], id: "demo" });
    await model.generate({ messages: [] });
    const error = await model.generate({ messages: [] }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ModelClientError);
    expect((error as ModelClientError).code).toBe("script_exhausted");
    expect((error as Error).message).toContain("turn 2");
  });
});
