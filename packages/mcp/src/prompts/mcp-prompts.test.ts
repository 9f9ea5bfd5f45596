import { ToolError } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, setupMcp } from "../__fixtures__/test-servers.js";
import { FIXTURE_PNG_BASE64, resourceStdio } from "../resources/__fixtures__/resource-servers.js";
import { capPromptMessages } from "./mcp-prompts.js";

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
}

describe("McpHostBundles.prompts() and getPrompt() against two real stdio servers", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([resourceStdio("alpha"), resourceStdio("beta", { RES_RESOURCES: "0" })]);
  }, 60_000);
  afterAll(() => setup?.close());

  it("lists the prompts of both servers, following each server's cursor", async () => {
    const prompts = await setup.mcp.prompts();
    expect(prompts.map((prompt) => `${prompt.serverId}/${prompt.name}`).sort()).toEqual([
      "alpha/alpha_greet",
      "alpha/alpha_summary",
      "beta/beta_greet",
      "beta/beta_summary",
    ]);
    expect(prompts.find((prompt) => prompt.name === "alpha_greet")).toEqual({
      serverId: "alpha",
      name: "alpha_greet",
      title: "Greeting",
      description: "Greets someone.",
      arguments: [
        { name: "who", description: "Whom to greet", required: true },
        { name: "style", description: "plain or warm" },
      ],
    });
  });

  it("fills in a prompt with string arguments: text, a checked image, an embedded resource as text with its URI", async () => {
    const result = await setup.mcp.getPrompt("beta", "beta_greet", { who: "Ada", style: "warm" });
    expect(result).toEqual({
      description: "A greeting for Ada",
      messages: [
        { role: "user", content: { type: "text", text: "Greet Ada in a warm way." } },
        { role: "assistant", content: { type: "image", data: FIXTURE_PNG_BASE64, mimeType: "image/png" } },
        { role: "user", content: { type: "text", text: "[resource mem://notes/readme (text/plain)]\nThe readme of the fixture." } },
      ],
    });
  });

  it("names a missing required argument (invalid_arguments), an unknown argument and a non-string value", async () => {
    const missing = await rejection(setup.mcp.getPrompt("alpha", "alpha_greet", { style: "warm" }));
    expect(missing.code).toBe("invalid_arguments");
    expect(missing.message).toBe("Prompt alpha_greet of alpha needs the argument who.");
    const unknown = await rejection(setup.mcp.getPrompt("alpha", "alpha_greet", { who: "Ada", styel: "warm" }));
    expect(unknown.code).toBe("invalid_arguments");
    expect(unknown.message).toContain("Did you mean style?");
    const typed = await rejection(setup.mcp.getPrompt("alpha", "alpha_greet", { who: 3 } as never));
    expect(typed.message).toBe("Prompt argument who must be a string, not number.");
  });

  it("fails not_found for an unknown server or prompt, naming the closest", async () => {
    const server = await rejection(setup.mcp.getPrompt("alpah", "alpha_greet"));
    expect(server.code).toBe("not_found");
    expect(server.message).toContain('Did you mean "alpha"?');
    const prompt = await rejection(setup.mcp.getPrompt("alpha", "alpha_gret"));
    expect(prompt.code).toBe("not_found");
    expect(prompt.message).toBe("MCP server alpha has no prompt alpha_gret. Did you mean alpha_greet?");
  });
});

describe("capPromptMessages", () => {
  const image = (mib: number) => ({ type: "image" as const, data: "A".repeat(Math.ceil((mib * 1024 * 1024 * 4) / 3)), mimeType: "image/png" });
  const textOf = (messages: ReturnType<typeof capPromptMessages>) =>
    messages.map((message) => (message.content.type === "text" ? message.content.text : "<image>"));
  const bytesOf = (messages: ReturnType<typeof capPromptMessages>) => Buffer.byteLength(textOf(messages).join(""), "utf8");

  it("describes images past 5 MiB together, counting the description as text", () => {
    const texts = textOf(
      capPromptMessages([
        { role: "user", content: image(3) },
        { role: "user", content: image(3) },
      ]),
    );
    expect(texts[0]).toBe("<image>");
    expect(texts[1]).toMatch(/^\[image image\/png, \d+ bytes; not shown: the images of this prompt reached 5 MiB together\]$/);
    expect(texts).toHaveLength(2);
  });

  it("cuts the message that spends the 256 KiB text budget (notes included) and drops the rest with ONE note", () => {
    const capped = capPromptMessages([
      { role: "user", content: { type: "text", text: "a".repeat(200 * 1024) } },
      { role: "assistant", content: { type: "text", text: "b".repeat(100 * 1024) } },
      { role: "user", content: { type: "text", text: "never shown" } },
      { role: "user", content: image(1) },
    ]);
    const texts = textOf(capped);
    expect(texts[0]).toHaveLength(200 * 1024);
    expect(texts[1]).toMatch(/^b{56832}\n\[truncated: 56832 of 102400 bytes shown; a prompt carries at most 256 KiB of text\]$/);
    expect(texts[2]).toBe("[2 more messages of this prompt left out; a prompt carries at most 256 KiB of text]");
    expect(texts).toHaveLength(3);
    expect(bytesOf(capped)).toBeLessThanOrEqual(256 * 1024);
  });

  it("50 000 one-byte messages after a big one: one cut, one note, within 256 KiB in all (attack F13 of issue 39)", () => {
    const capped = capPromptMessages([
      { role: "user", content: { type: "text", text: "p".repeat(300 * 1024) } },
      ...Array.from({ length: 50_000 }, () => ({ role: "user" as const, content: { type: "text" as const, text: "x" } })),
    ]);
    expect(capped).toHaveLength(2);
    expect(textOf(capped)[1]).toBe("[50000 more messages of this prompt left out; a prompt carries at most 256 KiB of text]");
    expect(bytesOf(capped)).toBeLessThanOrEqual(256 * 1024);
  });

  it("keeps at most 200 messages and notes the rest once; a prompt within every cap is returned as it is", () => {
    const many = Array.from({ length: 250 }, (_, index) => ({ role: "assistant" as const, content: { type: "text" as const, text: `m${index}` } }));
    const capped = capPromptMessages(many);
    expect(capped).toHaveLength(201);
    expect(capped.slice(0, 200)).toEqual(many.slice(0, 200));
    expect(textOf(capped)[200]).toBe("[50 more messages of this prompt left out; a prompt carries at most 200 messages]");
    expect(capPromptMessages(many.slice(0, 200))).toEqual(many.slice(0, 200));
  });

  it("many image descriptions count against the text budget", () => {
    const tooBig = { type: "image" as const, data: "A".repeat(8 * 1024 * 1024), mimeType: "image/png" };
    const capped = capPromptMessages([
      { role: "user", content: { type: "text", text: "t".repeat(256 * 1024 - 1024) } },
      ...Array.from({ length: 150 }, () => ({ role: "user" as const, content: tooBig })),
    ]);
    expect(capped.length).toBeLessThan(150);
    expect(textOf(capped).at(-1)).toMatch(/^\[\d+ more messages of this prompt left out; a prompt carries at most 256 KiB of text\]$/);
    expect(bytesOf(capped)).toBeLessThanOrEqual(256 * 1024);
  });
});
