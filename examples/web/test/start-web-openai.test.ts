import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ApprovalRequestEvent } from "../src/protocol/messages.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeChatCompletionsServer,
  type FakeReply,
  type FakeRequest,
  startFakeChatCompletionsServer,
} from "../../cli/test/fake-chat-completions-server.js";
import { TestPage } from "./gateway-test-client.js";
import { type StartWebProcess, spawnStartWeb } from "./start-web-process.js";

function toolContents(request: FakeRequest): string[] {
  return request.body.messages.filter((message) => message.role === "tool").map((message) => String(message.content));
}

describe("the start-web command on an OpenAI-compatible model", () => {
  let workdir: string;
  let server: FakeChatCompletionsServer | undefined;
  let command: StartWebProcess | undefined;
  const pages: TestPage[] = [];

  beforeEach(() => {
    workdir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "web-openai-")));
    writeFileSync(path.join(workdir, "notes.txt"), "The answer is 42.\n");
  });
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close();
    command?.kill();
    command = undefined;
    await server?.close();
    server = undefined;
    rmSync(workdir, { recursive: true, force: true });
  });

  it("runs the model's Read without asking, asks in the page before a Write, and streams the answer", async () => {
    // The model: Read the notes, then Write a summary (the page approves it), then answer.
    const conversation = (request: FakeRequest, index: number): FakeReply => {
      if (index === 0)
        return { content: "Reading the notes.", toolCalls: [{ id: "call_read", name: "Read", arguments: JSON.stringify({ path: "notes.txt" }) }] };
      if (index === 1) {
        expect(toolContents(request).join("\n")).toContain("The answer is 42.");
        return { toolCalls: [{ id: "call_write", name: "Write", arguments: JSON.stringify({ path: "summary.txt", content: "42\n" }) }] };
      }
      expect(toolContents(request).at(-1)).toMatch(/summary\.txt/);
      return { content: "The notes say 42; I wrote summary.txt." };
    };
    server = await startFakeChatCompletionsServer(conversation);
    command = spawnStartWeb(["--port", "0", "--workdir", workdir], { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test-key", OPENAI_MODEL: "fake-model" });
    const { gatewayUrl, token } = await command.opened();
    expect(command.output()).toContain("Model: ");

    const page = await TestPage.connect(gatewayUrl, token, "openai-1");
    pages.push(page);
    expect(page.messages[0]).toMatchObject({ type: "welcome", host: { workdir } });
    page.send({ type: "user-message", conversationId: "openai-1", messageId: "m1", text: "Summarise my notes into summary.txt" });
    const asked = await page.waitForEvent((event): event is ApprovalRequestEvent => event.type === "approval-request", "the Write's approval request");
    expect(asked.toolName).toBe("Write");
    expect(existsSync(path.join(workdir, "summary.txt"))).toBe(false);
    page.send({ type: "approval-answer", conversationId: "openai-1", requestId: asked.requestId, approved: true });
    const end = await page.waitForEvent((event) => event.type === "turn-end", "turn-end");
    expect(end).toEqual({ type: "turn-end", messageId: "m1", status: "answered" });

    const events = page.events.map((entry) => entry.event);
    expect(events.filter((event) => event.type === "approval-request").map((event) => (event as ApprovalRequestEvent).toolName)).toEqual(["Write"]);
    expect(events.some((event) => event.type === "model-text-delta")).toBe(true);
    expect(readFileSync(path.join(workdir, "summary.txt"), "utf8")).toBe("42\n");
    expect(server.requests[0]!.body.model).toBe("fake-model");
    expect(server.requests[0]!.authorization).toBe("Bearer test-key");
    expect(await command.interrupt()).toBe(0);
  });
});
