import { describe, expect, it } from "vitest";
import { McpRuntime } from "../mcp-runtime.js";
import { createMcpResourceTools } from "./mcp-resource-tools.js";
import { createListMcpResourcesTool } from "./list-mcp-resources-tool.js";
import { createReadMcpResourceTool } from "./read-mcp-resource-tool.js";
import { McpResourceSubscriptions } from "./resource-subscriptions.js";

describe("what the model sees of the resource tools", () => {
  const environment = { getSettings: () => ({ servers: [], selected: [] }), runtime: new McpRuntime(), subscriptions: new McpResourceSubscriptions() };

  it("keeps their names, descriptions, JSON Schemas and metadata", () => {
    const tools = [createListMcpResourcesTool(environment), createReadMcpResourceTool(environment)];
    expect(tools.map(({ name, description, jsonSchema, metadata }) => ({ name, description, jsonSchema, metadata }))).toMatchSnapshot();
  });

  it("lists neither while no enabled server is known to offer resources", () => {
    expect(createMcpResourceTools({ ...environment, entries: () => [] }).listed()).toEqual([]);
  });
});
