import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { describe, expect, it } from "vitest";
import { useFeatureServer } from "./__fixtures__/feature-setup.js";
import type { McpSamplingRequest } from "./client-feature-types.js";

type Step = (request: ModelRequest) => Promise<string> | string;

describe("sampling through the host's model after its approval", () => {
  let step: Step = () => "unused";
  let approval: (request: McpSamplingRequest) => Promise<boolean> = async () => true;
  const approvals: McpSamplingRequest[] = [];
  const model = new ScriptedModelClient({ id: "scripted:host", respond: (request) => step(request) });
  const feature = useFeatureServer({
    sampling: {
      model,
      approve: (request) => {
        approvals.push(request);
        return approval(request);
      },
    },
  });
  const sample = (params: Record<string, unknown>, signal?: AbortSignal) => feature.call("sample", { params: JSON.stringify(params) }, signal);

  it("declares sampling only", () => {
    expect(feature.server.clientCapabilities()).toEqual({ sampling: {} });
  });

  it("asks the host with the mapped request, runs the model and answers its text", async () => {
    step = () => "Paris is the capital.";
    const requestsBefore = model.requests.length;
    const { isError, text } = await sample({
      messages: [
        { role: "user", content: { type: "text", text: "Capital of France?" } },
        { role: "assistant", content: [{ type: "text", text: "Let me think." }] },
        { role: "user", content: { type: "text", text: "One sentence." } },
      ],
      systemPrompt: "You are terse.",
      maxTokens: 50,
      temperature: 0.2,
      modelPreferences: { hints: [{ name: "claude-3-sonnet" }], intelligencePriority: 0.8 },
    });
    expect(isError).toBe(false);
    expect(JSON.parse(text)).toEqual({
      role: "assistant",
      content: { type: "text", text: "Paris is the capital." },
      model: "scripted:host",
      stopReason: "endTurn",
    });
    const expectedMessages = [
      { role: "system", content: "You are terse." },
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Let me think." },
      { role: "user", content: "One sentence." },
    ];
    expect(approvals.at(-1)).toMatchObject({ serverId: "feat", messages: expectedMessages, maxTokens: 50, temperature: 0.2, modelHints: ["claude-3-sonnet"] });
    expect(model.requests.length).toBe(requestsBefore + 1);
    expect(model.requests.at(-1)).toMatchObject({ messages: expectedMessages, maxOutputTokens: 50, temperature: 0.2 });
  });

  it("cuts the text at the first stop sequence and reports maxTokens for a length stop", async () => {
    step = () => "one, two END three";
    const cut = await sample({ messages: [{ role: "user", content: { type: "text", text: "Count" } }], maxTokens: 20, stopSequences: ["END", "two"] });
    expect(JSON.parse(cut.text)).toMatchObject({ content: { text: "one, " }, stopReason: "stopSequence" });
    step = () => ({ text: "cut sh", finishReason: "length" }) as never;
    const long = await sample({ messages: [{ role: "user", content: { type: "text", text: "Long" } }], maxTokens: 2 });
    expect(JSON.parse(long.text)).toMatchObject({ content: { text: "cut sh" }, stopReason: "maxTokens" });
  });

  it("refuses when the host does not approve, without running the model", async () => {
    approval = async () => false;
    const requestsBefore = model.requests.length;
    const { isError, text } = await sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 });
    approval = async () => true;
    expect(isError).toBe(true);
    expect(text).toContain("error -1: MCP error -1: The user refused the sampling request of feat");
    expect(model.requests.length).toBe(requestsBefore);
  });

  it("refuses image content with a clear error, before asking the host", async () => {
    const approvalsBefore = approvals.length;
    const { isError, text } = await sample({
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
          ],
        },
      ],
      maxTokens: 5,
    });
    expect(isError).toBe(true);
    expect(text).toContain("error -32602");
    expect(text).toContain("Sampling message 1 has image content; this client's model takes text only");
    expect(approvals.length).toBe(approvalsBefore);
  });

  it("reports a model failure as an internal error naming the model", async () => {
    step = () => {
      throw new Error("rate limited (HTTP 429)");
    };
    const { isError, text } = await sample({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 });
    expect(isError).toBe(true);
    expect(text).toContain("error -32603");
    expect(text).toContain("The host's model scripted:host failed: rate limited (HTTP 429)");
  });

  it("aborts the model's turn when the tool call that led to the request is aborted", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    step = (request) =>
      new Promise<string>((_resolve, reject) => {
        request.signal?.addEventListener("abort", () => {
          aborted();
          reject(request.signal?.reason);
        });
        started();
      });
    const controller = new AbortController();
    const call = sample({ messages: [{ role: "user", content: { type: "text", text: "Hang" } }], maxTokens: 5 }, controller.signal);
    await running;
    controller.abort();
    await sawAbort;
    const outcome = await call;
    expect(outcome.isError).toBe(true);
  });
});

describe("sampling without an approver", () => {
  const feature = useFeatureServer({ sampling: { model: new ScriptedModelClient(["never"]) } as never });

  it("is not declared, so a request gets method-not-found", async () => {
    expect(feature.server.clientCapabilities()).toEqual({});
    const result = await feature.call("sample", {
      params: JSON.stringify({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 }),
    });
    expect(result.text).toContain("error -32601");
  });
});
