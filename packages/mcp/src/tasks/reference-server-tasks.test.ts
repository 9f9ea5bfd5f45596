// Tasks and URL elicitation against the everything reference server (npm, spawned over stdio): its
// `simulate-research-query` runs as a required task through working -> input_required (a form-mode
// elicitation delivered by tasks/result) -> completed, and its `trigger-url-elicitation` covers both
// URL paths (elicitation/create and the -32042 error).
import type { McpElicitationRequest, McpUrlElicitationRequest } from "@agent-tools/core/mcp";
import type { ToolUpdate } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type McpTestSetup, everythingStdio, setupMcp, textOf } from "../__fixtures__/test-servers.js";

describe("the everything server's task and URL-elicitation tools", () => {
  let setup: McpTestSetup;
  const forms: McpElicitationRequest[] = [];
  const urls: McpUrlElicitationRequest[] = [];
  beforeAll(async () => {
    setup = await setupMcp([{ ...everythingStdio("every"), timeoutMs: 20_000 }], {
      onElicitation: async (request) => {
        forms.push(request);
        const choice = (request.requestedSchema.properties.interpretation as { oneOf?: Array<{ const: string }> }).oneOf?.[0]?.const;
        return { action: "accept", content: { interpretation: choice ?? "technical" } };
      },
      onUrlElicitation: async (request) => {
        urls.push(request);
        return { action: "accept" };
      },
    });
    // The server registers these tools after initialize (they depend on the client's capabilities) and says so with list_changed.
    await vi.waitFor(() => expect(setup.mcp.tools.entries().some((entry) => entry.toolName === "simulate-research-query")).toBe(true), { timeout: 10_000 });
  }, 30_000);
  afterAll(async () => {
    await setup?.close();
  });

  it("runs simulate-research-query as a task: status updates, the clarification asked through onElicitation, the report", async () => {
    const updates: ToolUpdate[] = [];
    const result = await setup.registry.executeToolCall(
      { id: "r1", name: "mcp_every_simulate-research-query", arguments: { topic: "python", ambiguous: true } },
      { onUpdate: (event) => updates.push(event.update) },
    );
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("# Research Report: python");
    expect(textOf(result)).toContain("input_required");
    const statuses = updates.map((update) => update.data as { kind?: string; status?: string }).filter((data) => data.kind === "mcp_task");
    expect(statuses[0]?.status).toBe("working");
    expect(forms).toHaveLength(1);
    expect(forms[0]!.message).toContain('"python" could have multiple interpretations');
  }, 30_000);

  it("answers trigger-url-elicitation's elicitation/create with the host's answer, naming the URL's origin", async () => {
    const result = await setup.registry.executeToolCall({
      id: "u1",
      name: "mcp_every_trigger-url-elicitation",
      arguments: { url: "https://auth.example.com/device?code=1", message: "Sign in" },
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("User completed the URL elicitation flow");
    expect(urls.at(-1)).toMatchObject({
      serverId: "every",
      url: "https://auth.example.com/device?code=1",
      origin: "https://auth.example.com",
      message: "Sign in",
    });
  });
});

describe("the everything server's -32042 error path", () => {
  let setup: McpTestSetup;
  const urls: McpUrlElicitationRequest[] = [];
  beforeAll(async () => {
    // A short timeoutMs: this server never sends notifications/elicitation/complete, and the retry waits up to that long for it.
    setup = await setupMcp([{ ...everythingStdio("every"), timeoutMs: 2_000 }], {
      onUrlElicitation: async (request) => {
        urls.push(request);
        return { action: "accept" };
      },
    });
    await vi.waitFor(() => expect(setup.mcp.tools.entries().some((entry) => entry.toolName === "trigger-url-elicitation")).toBe(true), { timeout: 10_000 });
  }, 30_000);
  afterAll(async () => {
    await setup?.close();
  });

  it("asks the host about the prerequisite, then retries once (the retry proceeds to the request path)", async () => {
    const result = await setup.registry.executeToolCall({
      id: "u2",
      name: "mcp_every_trigger-url-elicitation",
      arguments: { url: "https://auth.example.com/device?code=2", message: "Sign in again", errorPath: true },
    });
    expect(result.isError).toBe(false);
    expect(urls.map((request) => [request.url, request.origin])).toEqual([
      ["https://modelcontextprotocol.io", "https://modelcontextprotocol.io"],
      ["https://auth.example.com/device?code=2", "https://auth.example.com"],
    ]);
  }, 30_000);
});
