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
  it("cuts a prompt's text at 256 KiB over all messages with a note, and describes images past 5 MiB together", () => {
    const image = (mib: number) => ({ type: "image" as const, data: "A".repeat(Math.ceil((mib * 1024 * 1024 * 4) / 3)), mimeType: "image/png" });
    const capped = capPromptMessages([
      { role: "user", content: { type: "text", text: "a".repeat(200 * 1024) } },
      { role: "assistant", content: { type: "text", text: "b".repeat(100 * 1024) } },
      { role: "user", content: { type: "text", text: "never shown" } },
      { role: "user", content: image(3) },
      { role: "user", content: image(3) },
    ]);
    const texts = capped.map((message) => (message.content.type === "text" ? message.content.text : "<image>"));
    expect(texts[0]).toHaveLength(200 * 1024);
    expect(texts[1]).toMatch(/^b{57344}\n\[truncated: 57344 of 102400 bytes shown; a prompt carries at most 256 KiB of text\]$/);
    expect(texts[2]).toBe("\n[truncated: 0 of 11 bytes shown; a prompt carries at most 256 KiB of text]");
    expect(texts[3]).toBe("<image>");
    expect(texts[4]).toMatch(/^\[image image\/png, \d+ bytes; not shown: the images of this prompt reached 5 MiB together\]$/);
  });
});
