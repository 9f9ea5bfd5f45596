// A call checked against a cached definition never reaches a live tool whose definition differs (real stdio servers).
import { afterEach, describe, expect, it } from "vitest";
import type { McpManifest, McpManifestTool } from "@agent-tools/core/mcp";
import { setupMcp, tempDir, textOf } from "../__fixtures__/test-servers.js";
import { InMemoryMcpManifestStore } from "../manifest/in-memory-mcp-manifest-store.js";
import { mcpConfigHash } from "../manifest/mcp-config-hash.js";
import { type McpServerConfigInput, normalizeMcpServerConfig } from "../settings.js";
import { lazyServer, recordedCalls, recordedStarts } from "./__fixtures__/lazy-servers.js";
import { changedToolFields } from "./tool-changed.js";

const object = (properties: Record<string, unknown> = {}) => ({ type: "object", properties });

/** The fixture's control tools as it lists them. */
const CONTROL: McpManifestTool[] = [
  { name: "sleep", description: "Answers after ms milliseconds.", inputSchema: object({ ms: { type: "number" } }) },
  { name: "forget", description: "Drops a tool silently.", inputSchema: object({ tool: { type: "string" } }) },
  { name: "remove", description: "Drops a tool and notifies.", inputSchema: object({ tool: { type: "string" } }) },
];

function manifestOf(input: McpServerConfigInput, tool: McpManifestTool): McpManifest {
  return { serverId: input.id!, configHash: mcpConfigHash(normalizeMcpServerConfig(input), ""), fetchedAt: Date.now(), tools: [tool, ...CONTROL] };
}

describe("lazy lifecycle: a tool that changed since its cached definition", () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function setupWith(cached: McpManifestTool) {
    const record = tempDir("mcp-tool-changed-");
    cleanups.push(record.cleanup);
    const server = lazyServer("box", record.dir, ["peek"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(server, cached));
    const made = await setupMcp([server], { manifestCache: store, toolSearch: false });
    cleanups.push(() => made.close());
    expect(recordedStarts(record.dir)).toEqual([]);
    return { made, dir: record.dir };
  }
  const call = (made: Awaited<ReturnType<typeof setupMcp>>, args: Record<string, unknown> = {}) =>
    made.registry.executeToolCall({ id: `c-${Math.random()}`, name: "mcp_box_peek", arguments: args });
  const described = (made: Awaited<ReturnType<typeof setupMcp>>) => made.registry.tools.find((tool) => tool.name === "mcp_box_peek")?.description;

  it("another description: the first call starts the server, is not sent, returns conflict; the next call runs the new definition", async () => {
    const { made, dir } = await setupWith({ name: "peek", description: "Shows a harmless preview.", inputSchema: object() });
    expect(described(made)).toBe("[MCP:box] Shows a harmless preview.");
    const first = await call(made);
    expect(first.isError).toBe(true);
    expect(first.details).toMatchObject({ code: "conflict", serverId: "box", tool: "peek", changed: ["description"] });
    expect(textOf(first)).toContain("changed on server box");
    expect(recordedStarts(dir)).toHaveLength(1);
    expect(recordedCalls(dir)).toEqual([]);
    // The rebuilt tool is the live one; a call checked against it is sent.
    expect(described(made)).toBe("[MCP:box] peek of box.");
    const second = await call(made);
    expect(second.isError).toBe(false);
    expect(textOf(second)).toBe(`box:peek:${recordedStarts(dir)[0]!.pid}`);
    expect(recordedCalls(dir)).toEqual(["box peek"]);
  });

  it("another input schema or annotations: the arguments checked against the cached schema are not sent", async () => {
    const { made, dir } = await setupWith({
      name: "peek",
      description: "peek of box.",
      inputSchema: object({ path: { type: "string" } }),
      annotations: { readOnlyHint: true },
    });
    const result = await call(made, { path: "notes.txt" });
    expect(result.details).toMatchObject({ code: "conflict", changed: ["inputSchema", "annotations"] });
    expect(recordedCalls(dir)).toEqual([]);
  });

  it("the same definition written with keys in another order is the same tool: the call is sent", async () => {
    const { made, dir } = await setupWith({ inputSchema: { properties: {}, type: "object" }, description: "peek of box.", name: "peek" });
    const result = await call(made);
    expect(result.isError).toBe(false);
    expect(recordedCalls(dir)).toEqual(["box peek"]);
  });
});

describe("changedToolFields", () => {
  it("names each differing part of a definition, ignoring key order and the name", () => {
    const base = { name: "a", description: "d", inputSchema: { type: "object", properties: { x: { type: "string" } } } };
    expect(changedToolFields(base, { ...base, inputSchema: { properties: { x: { type: "string" } }, type: "object" } })).toEqual([]);
    expect(changedToolFields(base, { ...base, title: "T", taskSupport: "required" })).toEqual(["title", "taskSupport"]);
    expect(changedToolFields(base, { ...base, inputSchema: { type: "object", properties: { x: { type: "number" } } } })).toEqual(["inputSchema"]);
  });
});
