/**
 * Issue 39, `agent-tools-mcp` over Streamable HTTP (the server side):
 * browser origins other than the server's own (another localhost port, an
 * https twin, `null`, a lookalike) are refused before the MCP transport;
 * oversized bodies are refused and the server keeps answering; an invalid
 * `logging/setLevel` is a JSON-RPC error that turns no logging on.
 */
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createToolRegistry } from "../../packages/core/src/index.js";
import type { AgentToolsMcpServer, McpHttpListener } from "../../packages/mcp-server/src/index.js";
import { createMcpServer } from "../../packages/mcp-server/src/index.js";
import { rawPost } from "../../packages/mcp-server/src/testing-helpers.js";

const QUIET = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const initialize = (id = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "attacker", version: "0" } },
  });

describe("agent-tools-mcp over HTTP: origins, bodies, logging", () => {
  const registry = createToolRegistry({ workdir: os.tmpdir(), bundles: [], logger: QUIET });
  let server: AgentToolsMcpServer;
  let listener: McpHttpListener;
  let port: number;
  beforeAll(async () => {
    server = createMcpServer(registry, { logger: QUIET });
    listener = await server.listenHttp({ port: 0 });
    port = Number(new URL(listener.url).port);
  });
  afterAll(async () => {
    await server.close();
    await registry.close();
  });

  it("refuses browser origins other than its own", async () => {
    for (const origin of [
      "http://evil.example",
      "null",
      `http://localhost:${port + 1}`,
      `https://localhost:${port}`,
      `http://localhost:${port}.evil.example`,
      `http://127.0.0.1:${port}@evil.example`,
      "http://localhost",
      `http://xn--lcalhost-8ya:${port}`,
    ]) {
      const answer = await rawPost(listener.url, { origin }, initialize());
      expect([origin, answer.status]).toEqual([origin, 403]);
    }
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      expect([origin, (await rawPost(listener.url, { origin }, initialize())).status]).toEqual([origin, 200]);
    }
  });

  it("refuses a 64 MiB body and keeps answering", async () => {
    const answer = await rawPost(listener.url, {}, { size: 64 * 1024 * 1024 });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect((await rawPost(listener.url, {}, initialize())).status).toBe(200);
  });

  it("an invalid logging/setLevel is a JSON-RPC error", async () => {
    const opened = await rawPost(listener.url, {}, initialize(7));
    const sessionId = String(opened.headers["mcp-session-id"] ?? "");
    expect(sessionId).not.toBe("");
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    await rawPost(listener.url, headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    for (const level of ["trace", "", "__proto__", "constructor"]) {
      const answer = await rawPost(listener.url, headers, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "logging/setLevel", params: { level } }));
      expect([level, answer.body]).toEqual([level, expect.stringContaining('"error"')]);
    }
    // The same session takes a valid level (so the refusals above were the level's, not the session's).
    const valid = await rawPost(listener.url, headers, JSON.stringify({ jsonrpc: "2.0", id: 10, method: "logging/setLevel", params: { level: "debug" } }));
    expect(valid.body).toContain('"result"');
    expect(valid.body).not.toContain('"error"');
  });
});
