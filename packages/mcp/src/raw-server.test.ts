import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MCP_STDIO_MAX_MESSAGE_BYTES } from "./message-size-limit.js";
import { type McpTestSetup, rawStdio, setupMcp, startEdgeHttp, textOf } from "./__fixtures__/test-servers.js";

const MiB = 1024 * 1024;
const schemaOf = (setup: McpTestSetup, name: string) => setup.registry.tools.find((tool) => tool.name === name)?.inputSchema;
const call = (setup: McpTestSetup, name: string, args: Record<string, unknown> = {}) => setup.registry.executeToolCall({ id: name, name, arguments: args });

describe("a stdio server whose tools/list holds broken schemas (raw JSON-RPC fixture)", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([rawStdio("raw")]);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("loads the server and lists its good tools from both pages", async () => {
    expect(setup.mcp.runtime.status("raw")).toMatchObject({ state: "connected", toolsCount: 7 });
    expect(
      setup.registry.tools
        .map((tool) => tool.name)
        .filter((name) => name.startsWith("mcp_raw_"))
        .sort(),
    ).toEqual(["mcp_raw_bad_required", "mcp_raw_big", "mcp_raw_echo", "mcp_raw_not_an_object", "mcp_raw_pid", "mcp_raw_string_schema", "mcp_raw_untyped"]);
    expect(textOf(await call(setup, "mcp_raw_echo", { text: "hello" }))).toBe("hello");
    expect(schemaOf(setup, "mcp_raw_echo")).toEqual({
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    });
  });

  it("skips the tool without a name with a warning naming it and its server", () => {
    const warning = setup.logger.warnings.find((line) => line.includes("no name"));
    expect(warning).toBe(
      'MCP server raw: a tool has no name (description: "A tool without a name."), so it cannot be called; it is skipped, the server\'s other tools stay available.',
    );
  });

  it("offers each coercible tool with an object schema, warns once, and calls it", async () => {
    expect(schemaOf(setup, "mcp_raw_string_schema")).toEqual({ type: "object", properties: {}, additionalProperties: true });
    expect(schemaOf(setup, "mcp_raw_untyped")).toEqual({ type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    expect(schemaOf(setup, "mcp_raw_not_an_object")).toEqual({ type: "object", properties: {} });
    expect(schemaOf(setup, "mcp_raw_bad_required")).toEqual({ type: "object", properties: { a: { type: "string" }, b: {} } });
    const coercedWarnings = setup.logger.warnings.filter((line) => line.includes("invalid input schema"));
    expect(coercedWarnings).toHaveLength(4);
    expect(coercedWarnings[0]).toBe(
      'MCP server raw: tool string_schema has an invalid input schema (type "string" became "object"; properties was an array and was dropped, so any argument is accepted); it is offered with the repaired schema.',
    );

    expect(textOf(await call(setup, "mcp_raw_string_schema", { query: "cats", limit: 2 }))).toBe('string_schema got {"query":"cats","limit":2}');
    expect(textOf(await call(setup, "mcp_raw_untyped", { q: "x" }))).toBe('untyped got {"q":"x"}');
    expect(textOf(await call(setup, "mcp_raw_not_an_object"))).toBe("not_an_object got {}");
    expect(textOf(await call(setup, "mcp_raw_bad_required", { a: "1", b: 2 }))).toBe('bad_required got {"a":"1","b":2}');
    // A refresh rebuilds the tool list without repeating the warnings.
    await setup.mcp.refresh();
    expect(setup.logger.warnings.filter((line) => line.includes("invalid input schema"))).toHaveLength(4);
  });

  it("reports a 12 MiB result as too large for stdio, and the next call reconnects", async () => {
    expect(MCP_STDIO_MAX_MESSAGE_BYTES).toBe(10 * MiB);
    const pidBefore = Number(textOf(await call(setup, "mcp_raw_pid")));
    const result = await call(setup, "mcp_raw_big", { bytes: 12 * MiB });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "MCP server raw: the result of big was larger than 10 MiB (10485760 bytes), the most one MCP message over stdio may carry, so it was discarded and the connection was reset (the server restarts on the next call, losing any state it kept in memory). Call big again asking for less output: use its paging or limit arguments if it has any (page, limit, offset, max_results, a line range), or a narrower query, and fetch the rest in further calls.",
    );
    expect(result.details).toMatchObject({ code: "too_large", serverId: "raw", tool: "big", limitBytes: 10 * MiB, transport: "stdio" });
    const pidAfter = Number(textOf(await call(setup, "mcp_raw_pid")));
    expect(pidAfter).toBeGreaterThan(0);
    expect(pidAfter).not.toBe(pidBefore);
    expect(textOf(await call(setup, "mcp_raw_echo", { text: "still here" }))).toBe("still here");
    const small = await call(setup, "mcp_raw_big", { bytes: 1000 });
    expect(textOf(small)).toBe("x".repeat(1000));
  }, 60_000);
});

describe("a large result over Streamable HTTP", () => {
  it("arrives whole (the SDK's HTTP client has no size limit) and the registry caps what the model sees", async () => {
    const server = await startEdgeHttp();
    const setup = await setupMcp([{ id: "web", transport: "http", url: server.url, timeoutMs: 30_000 }]);
    try {
      const result = await call(setup, "mcp_web_big", { bytes: 12 * MiB });
      expect(result.isError).toBe(false);
      expect(result.details).toMatchObject({ outputTruncated: { totalChars: 12 * MiB } });
      expect(textOf(result)).toMatch(/\[Output truncated: showing the first \d+ of 12582912 characters\./);
    } finally {
      await setup.close();
      await server.stop();
    }
  }, 60_000);
});
