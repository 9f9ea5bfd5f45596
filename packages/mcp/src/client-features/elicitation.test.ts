import { describe, expect, it } from "vitest";
import { useFeatureServer } from "./__fixtures__/feature-setup.js";
import type { McpElicitationRequest, McpElicitationResult } from "./client-feature-types.js";

const PROFILE = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
    email: { type: "string", format: "email" },
    born: { type: "string", format: "date" },
  },
  required: ["email"],
};

describe("elicitation through the host's onElicitation", () => {
  let reply: (request: McpElicitationRequest) => Promise<McpElicitationResult> = async () => ({ action: "cancel" });
  const asked: McpElicitationRequest[] = [];
  const feature = useFeatureServer({
    onElicitation: (request) => {
      asked.push(request);
      return reply(request);
    },
  });
  const ask = (schema: unknown, message = "Your profile?") => feature.call("ask", { message, schema: JSON.stringify(schema) });

  it("declares form-mode elicitation in initialize", () => {
    expect(feature.server.clientCapabilities()).toMatchObject({ elicitation: { form: {} } });
  });

  it("passes the server id, message and form to the host and fills the fields the answer left out with their defaults", async () => {
    reply = async () => ({ action: "accept", content: { email: "ada@example.com", age: 36 } });
    const { isError, text } = await ask(PROFILE);
    expect(isError).toBe(false);
    expect(JSON.parse(text)).toEqual({
      action: "accept",
      content: { email: "ada@example.com", age: 36, name: "John Doe", score: 95.5, status: "active", verified: true },
    });
    const request = asked.at(-1)!;
    expect(request.serverId).toBe("feat");
    expect(request.message).toBe("Your profile?");
    expect(request.requestedSchema.properties.status).toMatchObject({ enum: ["active", "inactive", "pending"] });
    expect(request.signal).toBeInstanceOf(AbortSignal);
  });

  it("answers decline and cancel as the host chose", async () => {
    reply = async () => ({ action: "decline" });
    expect(JSON.parse((await ask(PROFILE)).text)).toEqual({ action: "decline" });
    reply = async () => ({ action: "cancel" });
    expect(JSON.parse((await ask(PROFILE)).text)).toEqual({ action: "cancel" });
  });

  it("refuses an accepted answer that breaks the form, naming each field", async () => {
    reply = async () => ({ action: "accept", content: { email: "not-an-email", age: 3.5, status: "gone", born: "2026-02-30", extra: 1 } });
    const { isError, text } = await ask(PROFILE);
    expect(isError).toBe(true);
    expect(text).toContain("error -32603");
    expect(text).toContain('field "email" must be an email address');
    expect(text).toContain('field "age" must be an integer');
    expect(text).toContain('field "status" must be one of active, inactive, pending');
    expect(text).toContain('field "born" must be a date (YYYY-MM-DD)');
    expect(text).toContain('field "extra" is not in the requested schema');
  });

  it("refuses an answer that leaves out a required field without a default", async () => {
    reply = async () => ({ action: "accept", content: {} });
    const { isError, text } = await ask(PROFILE);
    expect(isError).toBe(true);
    expect(text).toContain('required field "email" is missing');
  });

  it("rejects forms outside the spec's subset without asking the host", async () => {
    const before = asked.length;
    const nested = await ask({ type: "object", properties: { address: { type: "object", properties: { city: { type: "string" } } } } });
    expect(nested.isError).toBe(true);
    expect(nested.text).toContain("error -32602");
    const unknownRequired = await ask({ type: "object", properties: { name: { type: "string" } }, required: ["nickname"] });
    expect(unknownRequired.text).toContain("error -32602: MCP error -32602: The elicitation form is outside the MCP spec's subset");
    expect(unknownRequired.text).toContain('required field "nickname" is not in properties');
    const badDefault = await ask({ type: "object", properties: { color: { type: "string", enum: ["red", "blue"], default: "green" } } });
    expect(badDefault.text).toContain('field "color": default must be one of red, blue');
    expect(asked.length).toBe(before);
  });

  it("turns a failing host callback into an error for the server", async () => {
    reply = async () => {
      throw new Error("no terminal attached");
    };
    const { isError, text } = await ask(PROFILE);
    expect(isError).toBe(true);
    expect(text).toContain("The client could not ask the user: no terminal attached");
  });
});

describe("elicitation without a host callback", () => {
  const feature = useFeatureServer();

  it("declares no client capability and answers method-not-found", async () => {
    expect(feature.server.clientCapabilities()).toEqual({});
    const result = await feature.call("ask", { message: "?", schema: JSON.stringify(PROFILE) });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("error -32601");
    const sample = await feature.call("sample", { params: JSON.stringify({ messages: [], maxTokens: 5 }) });
    expect(sample.text).toContain("error -32601");
    const roots = await feature.call("roots", {});
    expect(roots.text).toContain("error -32601");
  });
});
