import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ElicitationRequest } from "./elicitation-field.js";
import { createTerminalElicitation } from "./terminal-elicitation.js";

const schema: ElicitationRequest["requestedSchema"] = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", default: "Ada" },
    age: { type: "integer", minimum: 0, maximum: 150 },
    color: { type: "string", enum: ["red", "blue"] },
    subscribe: { type: "boolean", default: false },
    tags: { type: "array", items: { enum: ["a", "b", "c"] } },
  },
  required: ["age", "color"],
};

function terminal(lines: string[], isTTY = true) {
  const input = Object.assign(new PassThrough(), { isTTY });
  const output = new PassThrough();
  let written = "";
  output.on("data", (chunk) => {
    written += chunk.toString();
  });
  for (const line of lines) input.write(`${line}\n`);
  return { input, output, written: () => written };
}

const request = (signal = new AbortController().signal): ElicitationRequest => ({ serverId: "crm", message: "Who are you?", requestedSchema: schema, signal });

describe("terminal elicitation", () => {
  it("asks each field with its default, re-asks after a bad answer, and leaves defaulted fields to the client", async () => {
    const io = terminal(["", "abc", "200", "42", "green", "blue", "", "a, c"]);
    const result = await createTerminalElicitation({ input: io.input, output: io.output })(request());
    expect(result).toEqual({ action: "accept", content: { age: 42, color: "blue", tags: ["a", "c"] } });
    const text = io.written();
    expect(text).toContain("MCP server crm asks: Who are you?");
    expect(text).toContain("Name (text) [Ada]: ");
    expect(text).toContain("age * (integer, 0..150): ");
    expect(text).toContain("type a number.");
    expect(text).toContain("type at most 150.");
    expect(text).toContain("color * (one of red, blue): ");
    expect(text).toContain("type one of red, blue.");
    expect(text).toContain("subscribe (y/n) [false]: ");
  });

  it("answers decline or cancel when the user types the word", async () => {
    expect(await createTerminalElicitation(terminal(["Grace", "decline"]))(request())).toEqual({ action: "decline" });
    expect(await createTerminalElicitation(terminal(["CANCEL"]))(request())).toEqual({ action: "cancel" });
  });

  it("requires required fields without a default", async () => {
    const io = terminal(["", "", "7", "red", "y", ""]);
    const result = await createTerminalElicitation(io)(request());
    expect(result).toEqual({ action: "accept", content: { age: 7, color: "red", subscribe: true } });
    expect(io.written()).toContain("This field is required.");
  });

  it("declines without asking when there is no terminal", async () => {
    const io = terminal([], false);
    expect(await createTerminalElicitation(io)(request())).toEqual({ action: "decline" });
    expect(io.written()).toBe("");
  });

  it("cancels when the server withdraws the question", async () => {
    const io = terminal([]);
    const controller = new AbortController();
    const answer = createTerminalElicitation(io)(request(controller.signal));
    controller.abort();
    expect(await answer).toEqual({ action: "cancel" });
  });
});
