import { describe, expect, it } from "vitest";
import { mapMcpCallResult, mapMcpContentBlock } from "./content-mapping.js";
import { setupMcp } from "./__fixtures__/test-servers.js";

describe("what the model sees", () => {
  it("McpManager's schema and description", async () => {
    const setup = await setupMcp([]);
    try {
      const tool = setup.registry.tools.find((candidate) => candidate.name === "McpManager");
      expect(tool).toMatchSnapshot();
      expect(setup.registry.metadataByName.McpManager).toEqual({ groupId: "system", kind: "manage", isReadOnly: false, displayCategory: "mcp" });
    } finally {
      await setup.close();
    }
  });

  it("ToolSearch's schema and description", async () => {
    const { createToolSearchTool } = await import("./tool-search.js");
    const tool = createToolSearchTool({ entries: () => [], activated: new Set() });
    expect({ name: tool.name, description: tool.description, inputSchema: tool.jsonSchema, scopes: tool.scopes }).toMatchSnapshot();
  });
});

describe("content mapping", () => {
  it("describes audio and binary resources instead of passing their bytes", () => {
    expect(mapMcpContentBlock({ type: "audio", data: "AAAA", mimeType: "audio/wav" })).toEqual({ type: "text", text: "[audio audio/wav, 3 bytes; not shown]" });
    expect(mapMcpContentBlock({ type: "resource", resource: { uri: "file:///x.bin", mimeType: "application/octet-stream", blob: "AAAAAAAA" } })).toEqual({
      type: "text",
      text: "[resource file:///x.bin (application/octet-stream), binary 6 bytes; not shown]",
    });
  });

  it("turns structured-only results into JSON text and keeps isError", () => {
    const output = mapMcpCallResult({ content: [], structuredContent: { ok: 1 }, isError: false }, { serverId: "s", serverLabel: "s", tool: "t" });
    expect(output.content).toEqual([{ type: "text", text: '{\n  "ok": 1\n}' }]);
    const failed = mapMcpCallResult({ content: [], isError: true }, { serverId: "s", serverLabel: "s", tool: "t" });
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "(the MCP tool failed without a message)" }] });
  });
});
