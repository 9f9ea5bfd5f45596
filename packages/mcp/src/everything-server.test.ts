import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, type McpTestSetup, everythingStdio, setupMcp, startEverythingHttp, textOf } from "./__fixtures__/test-servers.js";

function sharedChecks(get: () => McpTestSetup, serverId: string) {
  it("lists the server's tools as mcp_<server>_<tool> with the [MCP:<server>] prefix and mcp metadata", () => {
    const { registry } = get();
    const echo = registry.tools.find((tool) => tool.name === `mcp_${serverId}_echo`);
    expect(echo?.description).toMatch(new RegExp(`^\\[MCP:${serverId}\\] `));
    expect(echo?.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(echo?.inputSchema).not.toHaveProperty("$schema");
    expect(registry.metadataByName[`mcp_${serverId}_get-sum`]).toEqual({ groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId });
  });

  it("calls a tool and maps text content and details", async () => {
    const result = await get().registry.executeToolCall({ id: "c1", name: `mcp_${serverId}_echo`, arguments: { message: "hello" } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe("Echo: hello");
    expect(result.details).toMatchObject({ serverId, serverLabel: serverId, tool: "echo", mcp: { contentTypes: ["text"], isError: false } });
  });

  it("accepts arguments as a JSON string and resolves names case-insensitively", async () => {
    const result = await get().registry.executeToolCall({ id: "c2", name: `MCP_${serverId.toUpperCase()}_GET-SUM`, arguments: JSON.stringify({ a: 2, b: 40 }) });
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
    const result = await setup.registry.executeToolCall({ id: "r", name: "mcp_everything_get-resource-reference", arguments: { resourceType: "Text", resourceId: 1 } });
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
