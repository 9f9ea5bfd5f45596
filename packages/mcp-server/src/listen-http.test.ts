import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BuiltinToolRegistry } from "@agent-tools/sdk";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createMcpServer } from "./create-mcp-server.js";
import type { McpHttpListener } from "./mcp-server-options.js";
import {
  type HttpServedRegistry,
  QUIET_LOGGER,
  TINY_PNG_BASE64,
  connectHttp,
  edgeServerSettings,
  initializeStatus,
  isAlive,
  serveRegistryOverHttp,
  startProcessTreeCall,
  tempWorkdir,
  textOf,
  waitUntilEnded,
} from "./testing-helpers.js";

describe("createMcpServer over Streamable HTTP", () => {
  const work = tempWorkdir();
  let served: HttpServedRegistry;
  let registry: BuiltinToolRegistry;
  let listener: McpHttpListener;
  beforeAll(async () => {
    writeFileSync(path.join(work.dir, "pixel.png"), Buffer.from(TINY_PNG_BASE64, "base64"));
    served = await serveRegistryOverHttp(
      {
        workdir: work.dir,
        dataDir: path.join(work.dir, ".data"),
        approval: { policies: { Edit: "ask" } },
        mcp: { getSettings: () => ({ servers: [edgeServerSettings()], selected: [] }) as never, toolSearch: false },
      },
      { port: 0 },
    );
    ({ registry, listener } = served);
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    work.cleanup();
  });

  it("binds 127.0.0.1 and serves list and calls to a real client", async () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const connection = await connectHttp(listener.url);
    try {
      expect(listener.sessionCount).toBeGreaterThanOrEqual(1);
      const { tools } = await connection.client.listTools();
      expect(tools.find((tool) => tool.name === "Glob")?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
      expect(tools.find((tool) => tool.name === "mcp_edge_echo")?.annotations).toEqual({ readOnlyHint: false, openWorldHint: true });
      const written = await connection.client.callTool({ name: "Write", arguments: { path: "http.txt", content: "over http\n" } });
      expect(written.isError).toBe(false);
      const read = await connection.client.callTool({ name: "Read", arguments: { path: "http.txt" } });
      expect(textOf(read)).toContain("over http");
      const image = await connection.client.callTool({ name: "Read", arguments: { path: "pixel.png" } });
      expect(image.content).toContainEqual({ type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" });
      const failed = await connection.client.callTool({ name: "mcp_edge_fail", arguments: {} });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain("boom");
    } finally {
      await connection.close();
    }
  });

  it("streams Bash output as progress and cancels a call whose process tree then ends", async () => {
    const connection = await connectHttp(listener.url);
    try {
      const messages: string[] = [];
      const quick = await connection.client.callTool({ name: "Bash", arguments: { command: "echo alpha; sleep 0.2; echo beta" } }, undefined, {
        onprogress: (progress) => void messages.push(progress.message ?? ""),
      });
      expect(textOf(quick)).toContain("beta");
      expect(messages.join("")).toMatch(/alpha[\s\S]*beta/);

      const abort = new AbortController();
      const { pids, settled } = await startProcessTreeCall(connection.client, abort.signal);
      expect(pids.every(isAlive)).toBe(true);
      abort.abort("test cancels");
      expect(await settled).not.toBe("resolved");
      await waitUntilEnded(pids);
    } finally {
      await connection.close();
    }
  });

  it("closing a session with DELETE aborts its running call", async () => {
    const connection = await connectHttp(listener.url);
    const before = listener.sessionCount;
    const { pids, settled } = await startProcessTreeCall(connection.client);
    expect(pids.every(isAlive)).toBe(true);
    await connection.transport.terminateSession();
    await waitUntilEnded(pids);
    await vi.waitFor(() => expect(listener.sessionCount).toBe(before - 1), { timeout: 20_000 });
    await connection.close();
    await settled;
  });

  it("tells every session list_changed when an MCP server's tools change, and lists the new tool", async () => {
    const first = await connectHttp(listener.url);
    const second = await connectHttp(listener.url);
    try {
      const heard = [0, 0];
      first.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (heard[0] += 1));
      second.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (heard[1] += 1));
      const before = (await first.client.listTools()).tools.map((tool) => tool.name);
      expect(before).not.toContain("mcp_edge_fresh_http");
      const added = await first.client.callTool({ name: "mcp_edge_add_tool", arguments: { name: "fresh_http" } });
      expect(textOf(added)).toBe("added fresh_http");
      await vi.waitFor(() => expect(heard.every((count) => count > 0)).toBe(true), { timeout: 20_000 });
      const after = (await second.client.listTools()).tools.map((tool) => tool.name);
      expect(after).toContain("mcp_edge_fresh_http");
      const ran = await second.client.callTool({ name: "mcp_edge_fresh_http", arguments: {} });
      expect(ran.isError).toBe(false);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("asks through elicitation on the call's own stream: accepted runs, declined does not", async () => {
    writeFileSync(path.join(work.dir, "ask.txt"), "one\n");
    const questions: string[] = [];
    const accepting = await connectHttp(listener.url, {
      elicit: (message) => {
        questions.push(message);
        return { action: "accept", content: { approve: true } };
      },
    });
    const declining = await connectHttp(listener.url, { elicit: () => ({ action: "decline" }) });
    try {
      await accepting.client.callTool({ name: "Read", arguments: { path: "ask.txt" } });
      const edited = await accepting.client.callTool({ name: "Edit", arguments: { path: "ask.txt", old_string: "one", new_string: "two" } });
      expect(edited.isError).toBe(false);
      expect(questions).toHaveLength(1);
      expect(questions[0]).toMatch(/Edit[\s\S]*ask\.txt/);
      await declining.client.callTool({ name: "Read", arguments: { path: "ask.txt" } });
      const refused = await declining.client.callTool({ name: "Edit", arguments: { path: "ask.txt", old_string: "two", new_string: "three" } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/The user declined/);
      expect(readFileSync(path.join(work.dir, "ask.txt"), "utf8")).toBe("two\n");
    } finally {
      await Promise.all([accepting.close(), declining.close()]);
    }
  });

  it("refuses a browser Origin it does not allow with 403 and accepts its own", async () => {
    const port = new URL(listener.url).port;
    expect(await initializeStatus(listener.url, { Origin: "http://evil.example" })).toBe(403);
    expect(await initializeStatus(listener.url, { Origin: `http://localhost:${port}` })).toBe(200);
    expect(await initializeStatus(listener.url, {})).toBe(200);
  });

  it("closes idle sessions, and close() ends every session and its calls", async () => {
    const other = createMcpServer(registry, { logger: QUIET_LOGGER });
    const idle = await other.listenHttp({ port: 0, sessionIdleMs: 300 });
    const quiet = await connectHttp(idle.url);
    await vi.waitFor(() => expect(idle.sessionCount).toBe(0), { timeout: 20_000 });
    await quiet.close();

    const busy = await other.listenHttp({ port: 0 });
    const connection = await connectHttp(busy.url);
    const { pids, settled } = await startProcessTreeCall(connection.client);
    await other.close();
    expect(busy.sessionCount).toBe(0);
    await waitUntilEnded(pids);
    await expect(fetch(busy.url, { method: "POST" })).rejects.toThrow();
    await connection.close();
    await settled;
  });
});

describe("a bearer token", () => {
  const work = tempWorkdir();
  let served: HttpServedRegistry;
  let listener: McpHttpListener;
  beforeAll(async () => {
    served = await serveRegistryOverHttp({ workdir: work.dir, dataDir: path.join(work.dir, ".data") }, { port: 0, bearerToken: "s3cret-token" });
    listener = served.listener;
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    work.cleanup();
  });

  it("is required: 401 without or with a wrong one, a working session with it", async () => {
    expect(await initializeStatus(listener.url, {})).toBe(401);
    expect(await initializeStatus(listener.url, { Authorization: "Bearer wrong" })).toBe(401);
    await expect(connectHttp(listener.url)).rejects.toThrow();
    const connection = await connectHttp(listener.url, { token: "s3cret-token" });
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("Read");
    } finally {
      await connection.close();
    }
  });
});
