import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCliCapturing } from "./run-cli-capturing.js";
import { type FakeChatCompletionsServer, type FakeReply, type FakeRequest, startFakeChatCompletionsServer } from "./fake-chat-completions-server.js";

function toolMessages(request: FakeRequest) {
  return request.body.messages.filter((message) => message.role === "tool");
}

describe("the CLI on an OpenAI-compatible server", () => {
  let workdir: string;
  let server: FakeChatCompletionsServer | undefined;

  beforeEach(() => {
    workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cli-openai-")));
    writeFileSync(path.join(workdir, "notes.txt"), "The answer is 42.\n");
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(workdir, { recursive: true, force: true });
  });

  // The model's turns: a malformed call, then (after seeing the error) a valid
  // Read, a Write, and a final answer. Each turn checks what the CLI sent back.
  const conversation = (request: FakeRequest, index: number): FakeReply => {
    switch (index) {
      case 0:
        expect(request.body.messages.map((message) => message.role)).toEqual(["system", "user"]);
        return { content: "Reading the notes.", toolCalls: [{ id: "call_bad", name: "Read", arguments: '{"path": "notes.txt"' }] };
      case 1: {
        const [result] = toolMessages(request);
        expect(result).toMatchObject({ tool_call_id: "call_bad" });
        expect(result!.content).toMatch(/malformed JSON/);
        return { toolCalls: [{ id: "call_read", name: "Read", arguments: JSON.stringify({ path: "notes.txt" }) }] };
      }
      case 2: {
        const result = toolMessages(request).find((message) => message.tool_call_id === "call_read");
        expect(result!.content).toContain("The answer is 42.");
        return { toolCalls: [{ id: "call_write", name: "Write", arguments: JSON.stringify({ path: "answer.txt", content: "42\n" }) }] };
      }
      default:
        return { content: "I wrote the answer to answer.txt." };
    }
  };

  for (const streaming of [true, false]) {
    it(`runs a tool-calling session ${streaming ? "streamed (SSE)" : "without streaming"}, a malformed call coming back to the model as an error`, async () => {
      server = await startFakeChatCompletionsServer(conversation);
      const argv = [
        "--base-url",
        server.baseUrl,
        "--api-key",
        "test-key",
        "--model",
        "fake-model",
        "--workdir",
        workdir,
        "--yes",
        "--json",
        ...(streaming ? [] : ["--no-stream"]),
        "Write",
        "the",
        "answer",
        "down",
      ];
      const run = await runCliCapturing(argv, workdir);

      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(readFileSync(path.join(workdir, "answer.txt"), "utf8")).toBe("42\n");
      expect(server.requests).toHaveLength(4);
      for (const request of server.requests) {
        expect(request.authorization).toBe("Bearer test-key");
        expect(request.body.model).toBe("fake-model");
        expect(request.body.stream === true).toBe(streaming);
      }
      const offered = server.requests[0]!.body.tools!.map((tool) => tool.function.name);
      expect(offered).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "Bash"]));

      const ends = run.events.filter((event) => event.type === "tool-end");
      expect(ends.map((event) => [event.callId, event.isError])).toEqual([
        ["call_bad", true],
        ["call_read", false],
        ["call_write", false],
      ]);
      const end = run.events.at(-1)!;
      expect(end).toMatchObject({
        type: "session-end",
        status: "answered",
        turns: 4,
        toolCalls: 3,
        failedToolCalls: 1,
        finalText: "I wrote the answer to answer.txt.",
      });
      // The server reported usage on non-streamed answers; streamed ones carry none here.
      if (!streaming) expect(end.usage).toEqual({ inputTokens: 40, outputTokens: 20 });
      const deltas = run.events
        .filter((event) => event.type === "model-text-delta")
        .map((event) => event.text)
        .join("");
      if (streaming) expect(deltas).toBe("Reading the notes.I wrote the answer to answer.txt.");
      else expect(deltas).toBe("");
      // Every line is one JSON object with a type and a time.
      for (const event of run.events) expect(typeof event.time).toBe("string");
    });
  }

  it("declines an `ask` tool when there is no terminal and no --yes, and tells the model", async () => {
    server = await startFakeChatCompletionsServer((request, index) => {
      if (index === 0) return { toolCalls: [{ id: "call_write", name: "Write", arguments: JSON.stringify({ path: "x.txt", content: "x" }) }] };
      const [result] = toolMessages(request);
      expect(result!.content).toMatch(/declined/);
      return { content: "The user did not allow writing." };
    });
    const run = await runCliCapturing(["--base-url", server.baseUrl, "--workdir", workdir, "--json", "write x"], workdir);
    expect(run.code).toBe(0);
    expect(run.events).toContainEqual(expect.objectContaining({ type: "approval", toolName: "Write", approved: false, by: "no-terminal" }));
    expect(() => readFileSync(path.join(workdir, "x.txt"))).toThrow();
  });

  it("reports an HTTP failure as a model error with exit code 1", async () => {
    server = await startFakeChatCompletionsServer(() => {
      throw new Error("boom");
    });
    const run = await runCliCapturing(["--base-url", server.baseUrl, "--workdir", workdir, "hello"], workdir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Model error: .*500/);
  });
});
