import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isAbortError } from "@agent-tools/core";
import { type ChatCompletionsTestServer, createChatCompletionsTestServer } from "./testing/index.js";
import { runModelClientContract } from "./testing/model-client-contract.js";
import { ModelClientError } from "@agent-tools/core";
import { OpenAICompatibleModelClient } from "./index.js";

runModelClientContract({
  name: "OpenAICompatibleModelClient",
  create: async (turns) => {
    const server = await createChatCompletionsTestServer({
      respond: (_request, index) => {
        const turn = turns[index];
        if (!turn) return { status: 500, body: '{"error":{"message":"no more turns"}}' };
        return "hang" in turn ? { hang: true } : { ...turn, chunkSize: 4 };
      },
    });
    return { client: new OpenAICompatibleModelClient({ baseURL: server.baseURL, model: "test-model" }), close: () => server.close() };
  },
});

describe("OpenAICompatibleModelClient", () => {
  let server: ChatCompletionsTestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (respond: Parameters<typeof createChatCompletionsTestServer>[0]["respond"]) => {
    server = await createChatCompletionsTestServer({ respond });
    return server;
  };

  it("sends model, messages, tools, tool choice, limits and the API key", async () => {
    const test = await start(() => ({ text: "ok" }));
    const client = new OpenAICompatibleModelClient({
      baseURL: `${test.baseURL}/`,
      model: "gpt-test",
      apiKey: "sk-123",
      headers: { "x-extra": "1" },
      extraBody: { top_p: 0.5 },
    });
    await client.generate({
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "Read", arguments: '{"path":"a"}' }] },
        { role: "tool", toolCallId: "c1", toolName: "Read", content: "text", isError: false },
      ],
      tools: [{ name: "Read", description: "Reads.", inputSchema: { type: "object", properties: {}, additionalProperties: false } }],
      toolChoice: "required",
      maxOutputTokens: 100,
      temperature: 0,
    });
    const received = test.requests[0]!;
    expect(received.path).toBe("/v1/chat/completions");
    expect(received.headers.authorization).toBe("Bearer sk-123");
    expect(received.headers["x-extra"]).toBe("1");
    expect(received.body).toEqual({
      top_p: 0.5,
      model: "gpt-test",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "Read", arguments: '{"path":"a"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "text" },
      ],
      tools: [
        { type: "function", function: { name: "Read", description: "Reads.", parameters: { type: "object", properties: {}, additionalProperties: false } } },
      ],
      tool_choice: "required",
      max_tokens: 100,
      temperature: 0,
    });
    expect(client.id).toBe("openai-compatible:gpt-test");
  });

  it("streams only when asked: auto follows onTextDelta, true and false force it", async () => {
    const test = await start(() => ({ text: "ok", usage: { prompt_tokens: 5, completion_tokens: 1 } }));
    const auto = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m" });
    expect(await auto.generate({ messages: [] })).toEqual({ text: "ok", toolCalls: [], finishReason: "stop", usage: { inputTokens: 5, outputTokens: 1 } });
    expect(test.requests[0]!.body.stream).toBeUndefined();
    await auto.generate({ messages: [], onTextDelta: () => undefined });
    expect(test.requests[1]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const forced = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m", stream: true, includeUsage: false });
    const streamed = await forced.generate({ messages: [] });
    expect(streamed).toEqual({ text: "ok", toolCalls: [], finishReason: "stop", usage: { inputTokens: 5, outputTokens: 1 } });
    expect(test.requests[2]!.body.stream).toBe(true);
    expect(test.requests[2]!.body.stream_options).toBeUndefined();
  });

  it("assembles several streamed tool calls from argument deltas, malformed ones raw", async () => {
    const test = await start(() => ({
      toolCalls: [
        { id: "a", name: "Glob", arguments: '{"pattern":"**/*.ts"}' },
        { id: "b", name: "Read", arguments: '{"path": "x.ts", "offset": 1' },
      ],
      chunkSize: 2,
    }));
    const client = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m", stream: true });
    const response = await client.generate({ messages: [] });
    expect(response.toolCalls).toEqual([
      { id: "a", name: "Glob", arguments: '{"pattern":"**/*.ts"}' },
      { id: "b", name: "Read", arguments: '{"path": "x.ts", "offset": 1' },
    ]);
    expect(response.finishReason).toBe("tool-calls");
  });

  it("reads streams without tool-call indexes, with CRLF lines and object arguments", async () => {
    const chunk = (delta: unknown, finish: string | null = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });
    const events = [
      chunk({ content: "Hi" }),
      chunk({ tool_calls: [{ id: "x", type: "function", function: { name: "Read", arguments: { path: "a.txt" } } }] }),
      chunk({}, "stop"),
    ];
    const raw = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`: comment\r\n${events.map((data) => `data: ${data}\r\n\r\n`).join("")}data: [DONE]\r\n\r\n`);
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const client = new OpenAICompatibleModelClient({ baseURL: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, model: "m", stream: true });
      const deltas: string[] = [];
      const response = await client.generate({ messages: [], onTextDelta: (text) => deltas.push(text) });
      expect(deltas).toEqual(["Hi"]);
      expect(response).toEqual({ text: "Hi", toolCalls: [{ id: "x", name: "Read", arguments: '{"path":"a.txt"}' }], finishReason: "tool-calls" });
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("accepts a whole JSON answer when a server ignores stream: true", async () => {
    const raw = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }] }));
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    try {
      const client = new OpenAICompatibleModelClient({ baseURL: `http://127.0.0.1:${(raw.address() as AddressInfo).port}/v1`, model: "m" });
      const deltas: string[] = [];
      expect(await client.generate({ messages: [], onTextDelta: (text) => deltas.push(text) })).toEqual({ text: "whole", toolCalls: [], finishReason: "stop" });
      expect(deltas).toEqual(["whole"]);
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it("surfaces HTTP errors with the status and the provider's message", async () => {
    const test = await start((_request, index) =>
      index === 0
        ? { status: 401, body: JSON.stringify({ error: { message: "Incorrect API key provided.", type: "invalid_request_error" } }) }
        : { status: 503, body: "upstream overloaded", contentType: "text/plain" },
    );
    const client = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m" });
    const unauthorised = (await client.generate({ messages: [] }).catch((error: unknown) => error)) as ModelClientError;
    expect(unauthorised).toBeInstanceOf(ModelClientError);
    expect(unauthorised.code).toBe("http_error");
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.retryable).toBe(false);
    expect(unauthorised.message).toContain("HTTP 401");
    expect(unauthorised.message).toContain("Incorrect API key provided.");
    const overloaded = (await client.generate({ messages: [], onTextDelta: () => undefined }).catch((error: unknown) => error)) as ModelClientError;
    expect(overloaded.status).toBe(503);
    expect(overloaded.retryable).toBe(true);
    expect(overloaded.message).toContain("upstream overloaded");
    expect(JSON.parse(JSON.stringify(overloaded))).toMatchObject({ name: "ModelClientError", code: "http_error", details: { status: 503 } });
  });

  it("reports an error event inside a stream as provider_error", async () => {
    const test = await start(() => ({
      events: [JSON.stringify({ choices: [{ index: 0, delta: { content: "par" } }] }), JSON.stringify({ error: { message: "model crashed" } })],
    }));
    const client = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m", stream: true });
    const error = (await client.generate({ messages: [] }).catch((reason: unknown) => reason)) as ModelClientError;
    expect(error.code).toBe("provider_error");
    expect(error.message).toContain("model crashed");
  });

  it("reports a body that is not chat completions as invalid_response", async () => {
    const test = await start((_request, index) =>
      index === 0 ? { status: 200, body: "<html>proxy login</html>", contentType: "text/html" } : { status: 200, body: '{"object":"list"}' },
    );
    const client = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m" });
    const notJson = (await client.generate({ messages: [] }).catch((reason: unknown) => reason)) as ModelClientError;
    expect(notJson.code).toBe("invalid_response");
    expect(notJson.message).toContain("not JSON");
    const noChoices = (await client.generate({ messages: [] }).catch((reason: unknown) => reason)) as ModelClientError;
    expect(noChoices.message).toContain("no choices");
  });

  it("reports an unreachable server as network_error", async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const client = new OpenAICompatibleModelClient({ baseURL: `http://127.0.0.1:${port}/v1`, model: "m" });
    const error = (await client.generate({ messages: [] }).catch((reason: unknown) => reason)) as ModelClientError;
    expect(error.code).toBe("network_error");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("ECONNREFUSED");
  });

  it("closes the connection when aborted mid-stream", async () => {
    const test = await start(() => ({ hang: true }));
    const client = new OpenAICompatibleModelClient({ baseURL: test.baseURL, model: "m", stream: true });
    const controller = new AbortController();
    const pending = client.generate({ messages: [], signal: controller.signal });
    while (test.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const disconnected = test.nextDisconnect();
    controller.abort();
    const error = await pending.catch((reason: unknown) => reason);
    expect(isAbortError(error)).toBe(true);
    await disconnected;
  });

  it("refuses bad options with an SdkError", () => {
    expect(() => new OpenAICompatibleModelClient({ baseURL: "localhost:1234", model: "m" })).toThrow(/http\(s\) baseURL/);
    expect(() => new OpenAICompatibleModelClient({ baseURL: "http://x/v1", model: "" })).toThrow(/model name/);
  });
});
