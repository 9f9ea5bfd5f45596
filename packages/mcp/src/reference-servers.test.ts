// Tests against real servers: the everything and filesystem reference servers from npm, and a bare legacy SSE server.
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpManagerDetails } from "./mcp-manager-support.js";
import {
  type HttpServerProcess,
  type McpTestSetup,
  everythingStdio,
  filesystemStdio,
  setupMcp,
  startEverythingHttp,
  startLegacySse,
  tempDir,
  textOf,
} from "./__fixtures__/test-servers.js";

function sharedChecks(get: () => McpTestSetup, serverId: string) {
  it("lists the server's tools as mcp_<server>_<tool> with the [MCP:<server>] prefix and mcp metadata", () => {
    const { registry } = get();
    const echo = registry.tools.find((tool) => tool.name === `mcp_${serverId}_echo`);
    expect(echo?.description).toMatch(new RegExp(`^\\[MCP:${serverId}\\] `));
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(echo?.inputSchema).not.toHaveProperty("$schema");
    expect(registry.metadataByName[`mcp_${serverId}_get-sum`]).toEqual({
      groupId: "mcp",
      kind: "mcp",
      isReadOnly: false,
      displayCategory: "mcp",
      serverId,
      annotations: { readOnly: false, listedInPlanMode: false, openWorld: true },
    });
  });

  it("calls a tool and maps text content and details", async () => {
    const result = await get().registry.executeToolCall({ id: "c1", name: `mcp_${serverId}_echo`, arguments: { message: "hello" } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("Echo: hello");
    expect(result.details).toMatchObject({ serverId, serverLabel: serverId, tool: "echo", mcp: { contentTypes: ["text"], isError: false } });
  });

  it("accepts arguments as a JSON string and resolves names case-insensitively", async () => {
    const result = await get().registry.executeToolCall({
      id: "c2",
      name: `MCP_${serverId.toUpperCase()}_GET-SUM`,
      arguments: JSON.stringify({ a: 2, b: 40 }),
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("42");
  });
}

describe("everything server over stdio", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([everythingStdio()]);
  });
  afterAll(async () => {
    await setup?.close();
  });
  sharedChecks(() => setup, "everything");

  it("maps images and structured content", async () => {
    const image = await setup.registry.executeToolCall({ id: "i", name: "mcp_everything_get-tiny-image", arguments: {} });
    expect(image.content.some((block) => block.type === "image" && block.mimeType === "image/png" && block.data.length > 100)).toBe(true);
    const structured = await setup.registry.executeToolCall({ id: "s", name: "mcp_everything_get-structured-content", arguments: { location: "Chicago" } });
    expect(structured.isError).toBe(false);
    expect((structured.details as { mcp: { structuredContent?: unknown } }).mcp.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it("maps embedded resources to text", async () => {
    const result = await setup.registry.executeToolCall({
      id: "r",
      name: "mcp_everything_get-resource-reference",
      arguments: { resourceType: "Text", resourceId: 1 },
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/\[resource [a-z]+:\/\//);
  });

  it("passes progress notifications to onUpdate", async () => {
    const updates: unknown[] = [];
    const result = await setup.registry.executeToolCall(
      { id: "p", name: "mcp_everything_trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      { onUpdate: (event) => updates.push(event.update.data) },
    );
    expect(result.isError).toBe(false);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates[0]).toMatchObject({ kind: "mcp_progress", progress: expect.any(Number), total: 3 });
  });

  it("gives hosts the reverse map from a tool name to (server, tool)", () => {
    expect(setup.mcp.resolveToolName("mcp_everything_get-sum")).toEqual({ serverId: "everything", toolName: "get-sum" });
    expect(setup.mcp.resolveToolName("mcp_everything_nope")).toBeUndefined();
  });

  it("reuses one connection for every call", async () => {
    const connection = setup.mcp.runtime.peek("everything");
    await setup.registry.executeToolCall({ id: "x", name: "mcp_everything_echo", arguments: { message: "again" } });
    expect(setup.mcp.runtime.peek("everything")).toBe(connection);
    expect(connection?.state).toBe("connected");
  });
});

describe("everything server over Streamable HTTP", () => {
  let server: HttpServerProcess;
  let setup: McpTestSetup;
  beforeAll(async () => {
    server = await startEverythingHttp("streamableHttp");
    setup = await setupMcp([{ id: "remote", transport: "http", url: server.url, timeoutMs: 20_000 }]);
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });
  sharedChecks(() => setup, "remote");
});

describe("everything server over legacy SSE", () => {
  let server: HttpServerProcess;
  let setup: McpTestSetup;
  beforeAll(async () => {
    server = await startEverythingHttp("sse");
    setup = await setupMcp([{ id: "legacy", transport: "sse", url: server.url, timeoutMs: 20_000 }]);
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });
  sharedChecks(() => setup, "legacy");
});

describe("filesystem server over stdio", () => {
  const root = tempDir("mcp-fs-root-");
  const dir = realpathSync(root.dir);
  let setup: McpTestSetup;
  beforeAll(async () => {
    writeFileSync(path.join(dir, "notes.txt"), "line one\nline two\n");
    setup = await setupMcp([filesystemStdio(dir)]);
  });
  afterAll(async () => {
    await setup?.close();
    root.cleanup();
  });

  it("reads, writes and lists files inside its allowed directory", async () => {
    const read = await setup.registry.executeToolCall({ id: "r", name: "mcp_files_read_text_file", arguments: { path: path.join(dir, "notes.txt") } });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain("line two");
    const write = await setup.registry.executeToolCall({
      id: "w",
      name: "mcp_files_write_file",
      arguments: { path: path.join(dir, "new.txt"), content: "written by MCP" },
    });
    expect(write.isError).toBe(false);
    expect(readFileSync(path.join(dir, "new.txt"), "utf8")).toBe("written by MCP");
    const list = await setup.registry.executeToolCall({ id: "l", name: "mcp_files_list_directory", arguments: { path: dir } });
    expect(textOf(list)).toMatch(/\[FILE\] new\.txt/);
  });

  it("passes the server's refusal outside its directory back as an error result", async () => {
    const result = await setup.registry.executeToolCall({ id: "x", name: "mcp_files_read_text_file", arguments: { path: "/etc/hostname" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied|outside|not allowed/i);
  });

  it("rejects keys the server's schema does not declare (it does not allow extra keys explicitly)", async () => {
    const schema = setup.registry.tools.find((tool) => tool.name === "mcp_files_read_text_file")?.inputSchema;
    expect(schema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    const result = await setup.registry.executeToolCall({
      id: "k",
      name: "mcp_files_read_text_file",
      arguments: { path: path.join(dir, "notes.txt"), bogus: true },
    });
    expect(schema?.additionalProperties).toBeUndefined();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/unsupported argument\(s\): bogus/);
  });
});

describe("legacy SSE server without an endpoint event", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startLegacySse();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("uses messageUrl (relative to url) after waiting 3 s for the endpoint", async () => {
    const setup = await setupMcp([{ id: "old", transport: "sse", url: server.url, messageUrl: "/messages", timeoutMs: 15_000 }]);
    try {
      const result = await setup.registry.executeToolCall({ id: "1", name: "mcp_old_echo", arguments: { text: "hi" } });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe("legacy: hi");
    } finally {
      await setup.close();
    }
  });

  it("without messageUrl, McpManager test fails and suggests setting it", async () => {
    const setup = await setupMcp([]);
    try {
      const result = await setup.registry.executeToolCall({
        id: "2",
        name: "McpManager",
        arguments: { action: "test", server: { id: "old", transport: "sse", url: server.url } },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/announced no message endpoint within 3000 ms/);
      expect((result.details as McpManagerDetails).suggestions?.join("\n")).toMatch(/messageUrl/);
    } finally {
      await setup.close();
    }
  });

  it("suggests checking the credentials on a 401", async () => {
    const setup = await setupMcp([]);
    try {
      const url = server.url.replace("/sse", "/secure/mcp");
      const result = await setup.registry.executeToolCall({
        id: "3",
        name: "McpManager",
        arguments: { action: "diagnose", server: { id: "locked", transport: "http", url, headers: { Authorization: "Bearer wrong" } } },
      });
      const details = result.details as McpManagerDetails;
      expect(details.ok).toBe(false);
      expect(details.phase).toBe("connect");
      expect(details.suggestions?.join("\n")).toMatch(/credentials/);
      expect(JSON.stringify(result)).not.toContain("Bearer wrong");
    } finally {
      await setup.close();
    }
  });
});
