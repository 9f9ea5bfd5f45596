import { describe, expect, it } from "vitest";
import { createHarness } from "./__fixtures__/harness.js";
import { UpdateForwarder } from "./update-forwarder.js";

describe("what the model sees", () => {
  it("the JSON Schemas of the chat and cron tools", async () => {
    const chat = createHarness("chat");
    const cron = createHarness("cron");
    try {
      expect(chat.registry.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema }))).toMatchSnapshot();
      expect(cron.registry.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema }))).toMatchSnapshot();
      for (const tool of [...chat.registry.tools, ...cron.registry.tools]) {
        expect(tool.inputSchema.type).toBe("object");
        expect(tool.inputSchema.additionalProperties).toBe(false);
        expect(tool.description.length).toBeGreaterThan(100);
      }
    } finally {
      await chat.cleanup();
      await cron.cleanup();
    }
  });
});

describe("UpdateForwarder", () => {
  it("sends the first chunk at once, coalesces later ones and caps each flush", async () => {
    const updates: { text?: string; stream?: string; data?: unknown }[] = [];
    const forwarder = new UpdateForwarder((update) => updates.push(update), 30, 10);
    forwarder.push("stdout", Buffer.from("first"));
    expect(updates).toEqual([{ stream: "stdout", text: "first" }]);
    forwarder.push("stdout", Buffer.from("ab"));
    forwarder.push("stdout", Buffer.from("cd"));
    forwarder.push("stderr", Buffer.from("err"));
    forwarder.push("stdout", Buffer.from("0123456789"));
    expect(updates).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(updates.slice(1)).toEqual([
      { stream: "stdout", text: "abcd" },
      { stream: "stderr", text: "err" },
      { text: "\n[10 bytes of output were not streamed; they are in the session buffer]\n", data: { skippedBytes: 10 } },
    ]);
    forwarder.close();
    forwarder.push("stdout", Buffer.from("late"));
    expect(updates).toHaveLength(4);
  });
});
