import { SdkError } from "@agent-tools/core";
import type { McpUrlElicitationRequest, McpUrlElicitationResult } from "@agent-tools/core/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { createMcpClientFeatures } from "../mcp-client-features.js";
import { type UrlElicitationServer, startUrlElicitationServer } from "./__fixtures__/url-elicitation-server.js";

describe("URL-mode elicitation through the host's onUrlElicitation (real SDK server over HTTP)", () => {
  let server: UrlElicitationServer;
  let setup: McpTestSetup;
  const asked: McpUrlElicitationRequest[] = [];
  let reply: (request: McpUrlElicitationRequest) => Promise<McpUrlElicitationResult> = async () => ({ action: "cancel" });
  beforeAll(async () => {
    server = await startUrlElicitationServer();
    setup = await setupMcp([{ id: "shop", transport: "http", url: server.url, timeoutMs: 20_000 }], {
      onElicitation: async () => ({ action: "decline" }),
      onUrlElicitation: (request) => {
        asked.push(request);
        return reply(request);
      },
    });
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await setup.registry.executeToolCall({ id: tool, name: `mcp_shop_${tool}`, arguments: args });
    return { isError: result.isError === true, text: textOf(result), details: result.details };
  };

  it("declares both elicitation modes when both callbacks are given", () => {
    expect(server.clientCapabilities()).toMatchObject({ elicitation: { form: {}, url: {} } });
  });

  it("passes server id, elicitation id, URL, origin, message and a signal to the host and returns each answer", async () => {
    reply = async () => ({ action: "accept" });
    const accepted = await call("open", { url: "https://login.example.com/authorize?x=1", message: "Sign in to Example" });
    expect(JSON.parse(accepted.text)).toEqual({ action: "accept" });
    const request = asked.at(-1)!;
    expect(request).toMatchObject({
      serverId: "shop",
      url: "https://login.example.com/authorize?x=1",
      origin: "https://login.example.com",
      message: "Sign in to Example",
    });
    expect(request.elicitationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.signal).toBeInstanceOf(AbortSignal);
    reply = async () => ({ action: "decline" });
    expect(JSON.parse((await call("open", { url: "https://example.com/", message: "m" })).text)).toEqual({ action: "decline" });
    reply = async () => ({ action: "cancel" });
    expect(JSON.parse((await call("open", { url: "http://example.com/", message: "m" })).text)).toEqual({ action: "cancel" });
  });

  it("declines a javascript: or file: URL without showing it to the host", async () => {
    reply = async () => ({ action: "accept" });
    const before = asked.length;
    for (const url of ["javascript:alert(document.cookie)", "file:///etc/passwd"]) {
      const { text } = await call("open", { url, message: "Click me" });
      expect(JSON.parse(text)).toEqual({ action: "decline" });
    }
    expect(asked.length).toBe(before);
  });

  it("runs the host callback for each elicitation of a -32042 refusal and retries the call once when all were accepted", async () => {
    const before = server.paidCalls();
    const seen: string[] = [];
    // The "user" opens each page (the SDK itself never does); the server then sends notifications/elicitation/complete.
    reply = async (request) => {
      seen.push(request.elicitationId);
      await fetch(request.url);
      return { action: "accept" };
    };
    const result = await call("paid", { ids: "order-1,order-2" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe("paid with order-1,order-2");
    expect(seen).toEqual(["order-1", "order-2"]);
    expect(server.paidCalls() - before).toBe(2);
  });

  it("fails with the server's message, without a retry, when the user declines", async () => {
    const before = server.paidCalls();
    reply = async () => ({ action: "decline" });
    const result = await call("paid", { ids: "order-3" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("Payment approval needed");
    expect(result.text).toContain("the user answered decline");
    expect(result.details).toMatchObject({ code: "unavailable" });
    expect(server.paidCalls() - before).toBe(1);
  });

  it("never shows a -32042 elicitation whose URL is not http(s), and does not retry", async () => {
    const before = server.paidCalls();
    const shown = asked.length;
    reply = async () => ({ action: "accept" });
    const result = await call("paid", { ids: "order-4", url: "javascript:alert(1)" });
    expect(result.isError).toBe(true);
    expect(asked.length).toBe(shown);
    expect(server.paidCalls() - before).toBe(1);
  });

  it("asks about at most 3 URL elicitations per -32042: with 4 the call fails saying the server asked for too many, nobody is asked", async () => {
    const before = server.paidCalls();
    const shown = asked.length;
    reply = async () => ({ action: "accept" });
    const result = await call("paid", { ids: "many-1,many-2,many-3,many-4" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("the server asked for too many URLs: 4, at most 3 per refusal");
    expect(result.text).toContain("Payment approval needed");
    expect(asked.length).toBe(shown);
    expect(server.paidCalls() - before).toBe(1);
  });

  it("declines a URL over 8 KiB unseen, in elicitation/create and in a -32042", async () => {
    reply = async () => ({ action: "accept" });
    const shown = asked.length;
    const long = `https://example.com/${"a".repeat(8 * 1024)}`;
    expect(JSON.parse((await call("open", { url: long, message: "m" })).text)).toEqual({ action: "decline" });
    const before = server.paidCalls();
    const refused = await call("paid", { ids: "long-1", url: long });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("the user answered decline");
    expect(server.paidCalls() - before).toBe(1);
    expect(asked.length).toBe(shown);
    const edge = `https://example.com/${"a".repeat(8 * 1024 - "https://example.com/".length)}`;
    expect(JSON.parse((await call("open", { url: edge, message: "m" })).text)).toEqual({ action: "accept" });
    expect(asked.at(-1)!.url).toBe(edge);
  });

  it("cuts the message shown to the host at 1 KiB with an ellipsis (at a character boundary)", async () => {
    reply = async () => ({ action: "accept" });
    await call("open", { url: "https://example.com/", message: `${"m".repeat(1000)}${"\u00e9".repeat(5000)}` });
    const message = asked.at(-1)!.message;
    expect(Buffer.byteLength(message, "utf8")).toBeLessThanOrEqual(1024);
    expect(message.startsWith("m".repeat(1000))).toBe(true);
    expect(message.endsWith("\u00e9\u2026")).toBe(true);
    expect(message).not.toContain("\uFFFD");
    await call("open", { url: "https://example.com/", message: "short" });
    expect(asked.at(-1)!.message).toBe("short");
  });
});

describe("URL-mode elicitation capability", () => {
  let server: UrlElicitationServer;
  beforeAll(async () => {
    server = await startUrlElicitationServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("declares only url with only onUrlElicitation", async () => {
    const setup = await setupMcp([{ id: "shop", transport: "http", url: server.url }], { onUrlElicitation: async () => ({ action: "decline" }) });
    try {
      const capabilities = server.clientCapabilities() as { elicitation?: Record<string, unknown> };
      expect(capabilities.elicitation).toEqual({ url: {} });
      const form = await setup.registry.executeToolCall({ id: "f", name: "mcp_shop_open", arguments: { url: "https://example.com/", message: "m" } });
      expect(JSON.parse(textOf(form))).toEqual({ action: "decline" });
    } finally {
      await setup.close();
    }
  });

  it("declares no url mode without the callback, and a -32042 refusal fails with the server's message", async () => {
    const setup = await setupMcp([{ id: "shop", transport: "http", url: server.url }], { onElicitation: async () => ({ action: "decline" }) });
    try {
      const capabilities = server.clientCapabilities() as { elicitation?: Record<string, unknown> };
      expect(capabilities.elicitation).toEqual({ form: {} });
      const opened = await setup.registry.executeToolCall({ id: "o", name: "mcp_shop_open", arguments: { url: "https://example.com/", message: "m" } });
      expect(textOf(opened)).toContain("error -32602");
      const before = server.paidCalls();
      const refused = await setup.registry.executeToolCall({ id: "p", name: "mcp_shop_paid", arguments: { ids: "order-5" } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("Payment approval needed");
      expect(textOf(refused)).toContain("this host takes no URL elicitations");
      expect(server.paidCalls() - before).toBe(1);
    } finally {
      await setup.close();
    }
  });

  it("retries only once: a server that still refuses after acceptance fails the call", async () => {
    // A short timeoutMs bounds the wait for a completion notice the server never sends (the host accepts without visiting).
    const setup = await setupMcp([{ id: "shop", transport: "http", url: server.url, timeoutMs: 1_000 }], {
      onUrlElicitation: async () => ({ action: "accept" }),
    });
    try {
      const before = server.paidCalls();
      const result = await setup.registry.executeToolCall({ id: "p", name: "mcp_shop_paid", arguments: { ids: "order-6" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("still asks after the user accepted");
      expect(server.paidCalls() - before).toBe(2);
    } finally {
      await setup.close();
    }
  });

  it("throws SdkError naming mcp.onUrlElicitation for a callback that is not a function", () => {
    const create = () => createMcpClientFeatures({ onUrlElicitation: "open it" as never });
    expect(create).toThrow(SdkError);
    expect(create).toThrow(/mcp\.onUrlElicitation must be a function/);
  });
});
