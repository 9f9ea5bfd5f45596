import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpManagerDetails } from "./mcp-manager-support.js";
import { type McpTestSetup, edgeStdio, setupMcp, textOf } from "./__fixtures__/test-servers.js";
import { mapMcpCallResult, mapMcpContentBlock } from "./content-mapping.js";

const call = (setup: McpTestSetup, args: Record<string, unknown>, id = "m") => setup.registry.executeToolCall({ id, name: "McpManager", arguments: args });
const details = (result: { details: unknown }) => result.details as McpManagerDetails;

describe("McpManager settings actions", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([
      { id: "secretive", transport: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer top-secret" }, enabled: false },
      { id: "local", command: "node", args: ["server.js"], env: { API_KEY: "hunter2" }, enabled: false },
    ]);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("lists and reads servers with env and header values redacted", async () => {
    const list = await call(setup, { action: "list" });
    expect(list.isError).toBe(false);
    expect(textOf(list)).toMatch(/^McpManager action=list\nservers=2 enabled=0/);
    expect(JSON.stringify(list)).not.toMatch(/top-secret|hunter2/);
    expect(details(list)).toMatchObject({ kind: "manage_mcp", action: "list", ok: true, serverCount: 2, enabledCount: 0 });
    const read = await call(setup, { action: "read", server_id: "local" });
    expect(textOf(read)).toContain('"API_KEY": "<redacted>"');
    expect(JSON.stringify(read)).not.toContain("hunter2");
    expect(setup.store.getSettings().servers[1]!.env).toEqual({ API_KEY: "hunter2" });
    const enabledOnly = await call(setup, { action: "list", include_disabled: false });
    expect(textOf(enabledOnly)).not.toContain("- local");
  });

  it("creates with defaults and an absolute cwd, and refuses a duplicate unless conflict=overwrite", async () => {
    const created = await call(setup, { action: "create", server: { id: "made", command: "node", args: ["x.js"], cwd: "sub/dir", enabled: false } });
    expect(created.isError).toBe(false);
    expect(textOf(created)).toContain("validation=ok\nchanged=true");
    expect(setup.store.getSettings().servers.find((server) => server.id === "made")).toMatchObject({
      transport: "stdio",
      timeoutMs: 60_000,
      cwd: path.join(setup.workdir, "sub/dir"),
    });
    const duplicate = await call(setup, { action: "create", server: { id: "made", command: "node" } });
    expect(duplicate.isError).toBe(true);
    expect(textOf(duplicate)).toMatch(/^McpManager failed: .*already exists/);
    const overwritten = await call(setup, { action: "create", conflict: "overwrite", server: { id: "made", command: "python3", enabled: false } });
    expect(details(overwritten)).toMatchObject({ ok: true, changed: true });
    expect(setup.store.getSettings().servers.find((server) => server.id === "made")?.command).toBe("python3");
  });

  it("rejects an invalid configuration without changing anything", async () => {
    const before = setup.store.getSettings();
    const result = await call(setup, { action: "create", server: { id: "bad", transport: "http", url: "not a url" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("validation=failed");
    expect(setup.store.getSettings()).toBe(before);
  });

  it("updates by patch, refuses an id change and unknown ids", async () => {
    const updated = await call(setup, { action: "update", server_id: "made", patch: { description: "patched" } });
    expect(details(updated)).toMatchObject({ ok: true, changed: true });
    const same = await call(setup, { action: "update", server_id: "made", patch: { description: "patched" } });
    expect(details(same).changed).toBe(false);
    const renamed = await call(setup, { action: "update", server_id: "made", patch: { id: "other" } });
    expect(textOf(renamed)).toMatch(/id cannot change/);
    const unknown = await call(setup, { action: "update", server_id: "nope", patch: { description: "x" } });
    expect(textOf(unknown)).toMatch(/no MCP server with id "nope"/);
  });

  it("enables, disables and deletes several servers", async () => {
    const enabled = await call(setup, { action: "enable", server_ids: ["secretive"] });
    expect(details(enabled)).toMatchObject({ ok: true, changed: true, serverIds: ["secretive"] });
    const disabled = await call(setup, { action: "disable", server_ids: ["secretive", "local"] });
    expect(details(disabled).changed).toBe(true);
    const deleted = await call(setup, { action: "delete", server_ids: ["made", "local"] });
    expect(details(deleted)).toMatchObject({ ok: true, changed: true });
    expect(setup.store.getSettings().servers.map((server) => server.id)).toEqual(["secretive"]);
    const missing = await call(setup, { action: "delete", server_id: "ghost" });
    expect(missing.isError).toBe(true);
  });

  it("refusals carry a ToolError code and their facts in details", async () => {
    const missing = await call(setup, { action: "delete", server_ids: ["ghost", "phantom"] });
    expect(textOf(missing)).toMatch(
      /^McpManager failed: no MCP server with id "ghost", "phantom"\. Use action=list to see the ids\.\nMcpManager action=delete/,
    );
    expect(details(missing)).toMatchObject({ ok: false, code: "not_found", missingServerIds: ["ghost", "phantom"] });
    const noId = await call(setup, { action: "read" });
    expect(details(noId)).toMatchObject({ ok: false, code: "invalid_arguments", field: "server_id", errors: ["action=read needs server_id."] });
    const renamed = await call(setup, { action: "update", server_id: "local", patch: { id: "other" } });
    expect(details(renamed)).toMatchObject({ code: "invalid_arguments", field: "patch.id", serverId: "local" });
  });

  it("validates inline configurations statically", async () => {
    const ok = await call(setup, { action: "validate", server: { id: "v", transport: "sse", url: "http://h/sse", messageUrl: "/messages", enabled: false } });
    expect(textOf(ok)).toContain("validation=ok");
    expect(textOf(ok)).toContain("warning: the server is disabled");
    const bad = await call(setup, { action: "validate", server: { id: "v", command: "", timeoutMs: -1 } });
    expect(details(bad).errors).toEqual(["stdio servers need a command.", "timeoutMs must be a number greater than 0."]);
  });

  it("loses no update under 200 concurrent mutations through executeToolCall", async () => {
    const ids = Array.from({ length: 200 }, (_, index) => `bulk-${index}`);
    const creates = await Promise.all(
      ids.map((id, index) =>
        call(setup, { action: "create", server: { id, transport: "http", url: "http://127.0.0.1:9/mcp", timeoutMs: 2_000, enabled: false } }, `c${index}`),
      ),
    );
    expect(creates.every((result) => !result.isError)).toBe(true);
    const updates = await Promise.all(
      ids.map((id, index) => call(setup, { action: "update", server_id: id, patch: { description: `d-${index}` } }, `u${index}`)),
    );
    expect(updates.every((result) => details(result).changed === true)).toBe(true);
    const servers = setup.store.getSettings().servers;
    expect(servers.filter((server) => server.id.startsWith("bulk-"))).toHaveLength(200);
    for (const [index, id] of ids.entries()) expect(servers.find((server) => server.id === id)?.description).toBe(`d-${index}`);
    const mixed = await Promise.all(
      ids.map((id, index) => call(setup, index % 2 ? { action: "delete", server_id: id } : { action: "enable", server_id: id }, `x${index}`)),
    );
    expect(mixed.every((result) => !result.isError)).toBe(true);
    const after = setup.store.getSettings().servers.filter((server) => server.id.startsWith("bulk-"));
    expect(after.map((server) => server.id)).toEqual(ids.filter((_, index) => index % 2 === 0));
    expect(after.every((server) => server.enabled)).toBe(true);
    await call(setup, { action: "disable", server_ids: after.map((server) => server.id) });
    await setup.mcp.refresh();
  });
});

describe("McpManager runtime actions against a real server", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([edgeStdio("edge")]);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("tests an inline configuration transiently", async () => {
    const result = await call(setup, { action: "test", server: edgeStdio("inline"), include_tools: true });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/test=ok phase=list_tools durationMs=\d+\nruntime=transient server=edge-server@1\.0\.0 tools=\d+/);
    expect(textOf(result)).toContain("- echo: Echoes text.");
    expect(setup.mcp.runtime.peek("inline")).toBeUndefined();
    expect(textOf(result)).not.toContain("stderr");
  });

  it("reports a missing command with the phase and a PATH suggestion", async () => {
    const result = await call(setup, { action: "test", server: { id: "missing", command: "/nonexistent/mcp-server-binary" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/test=failed phase=connect/);
    expect(details(result).suggestions?.[0]).toMatch(/was not found/);
  });

  it("diagnoses with the stderr tail by default, and lists tools with schemas", async () => {
    const diagnosis = await call(setup, { action: "diagnose", server_id: "edge" });
    expect(diagnosis.isError).toBe(false);
    expect(details(diagnosis).stderr?.join("\n")).toContain("edge-server: started on stdio");
    const tools = await call(setup, { action: "tools", server_id: "edge", include_schema: true });
    expect(textOf(tools)).toMatch(/- echo: Echoes text\.\n {2}schema: \{"type":"object"/);
    expect(details(tools).toolsCount).toBeGreaterThan(5);
  });

  it("restarts and stops a stored server", async () => {
    const before = setup.mcp.runtime.peek("edge");
    const restarted = await call(setup, { action: "restart", server_id: "edge" });
    expect(details(restarted)).toMatchObject({ ok: true });
    const after = setup.mcp.runtime.peek("edge");
    expect(after).not.toBe(before);
    expect(after?.state).toBe("connected");
    const stopped = await call(setup, { action: "stop", server_id: "edge" });
    expect(details(stopped).stopped).toEqual(["edge"]);
    expect(setup.registry.hasTool("mcp_edge_echo")).toBe(false);
    const called = await setup.registry.executeToolCall({ id: "t", name: "McpManager", arguments: { action: "test", server_id: "edge" } });
    expect(details(called).ok).toBe(true);
    expect(setup.registry.hasTool("mcp_edge_echo")).toBe(true);
  });

  it("stops the stale runtime after an update; a refresh connects the new configuration", async () => {
    await setup.mcp.refresh();
    expect(setup.mcp.runtime.peek("edge")?.state).toBe("connected");
    const updated = await call(setup, { action: "update", server_id: "edge", patch: { description: "changed" } });
    expect(details(updated)).toMatchObject({ ok: true, changed: true, stopped: ["edge"] });
    expect(textOf(updated)).toContain("stopped=edge");
    await setup.mcp.refresh();
    expect(setup.mcp.runtime.peek("edge")?.state).toBe("connected");
    expect(setup.registry.hasTool("mcp_edge_echo")).toBe(true);
  });

  it("connects a server created and enabled at run time after a refresh", async () => {
    const created = await call(setup, { action: "create", server: edgeStdio("later") });
    expect(created.isError).toBe(false);
    await setup.mcp.refresh();
    const result = await setup.registry.executeToolCall({ id: "l", name: "mcp_later_pid", arguments: {} });
    expect(Number(textOf(result))).toBeGreaterThan(0);
    await call(setup, { action: "disable", server_id: "later" });
    expect(setup.registry.hasTool("mcp_later_pid")).toBe(false);
    expect(setup.mcp.runtime.peek("later")).toBeUndefined();
  });
});

describe("McpManager gates", () => {
  it("refuses writes, restart and stop in the cron scope", async () => {
    const setup = await setupMcp([], { runtimeScope: "cron" });
    try {
      for (const action of ["create", "update", "delete", "enable", "disable", "restart", "stop"]) {
        const result = await call(setup, { action, server_id: "x" });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(`McpManager action=${action} is not allowed in cron_auto_prompt`);
      }
      expect((await call(setup, { action: "list" })).isError).toBe(false);
    } finally {
      await setup.close();
    }
  });

  it("is read-only without a settings writer", async () => {
    const setup = await setupMcp([], { readOnly: true });
    try {
      const result = await call(setup, { action: "create", server: { id: "x", command: "node" } });
      expect(textOf(result)).toContain("McpManager cannot modify MCP settings in this runtime scope");
      expect((await call(setup, { action: "validate", server: { id: "x", command: "node" } })).isError).toBe(false);
    } finally {
      await setup.close();
    }
  });

  it("refuses every stdio spawn on a sandboxed host but allows http", async () => {
    const setup = await setupMcp([{ id: "stored", command: "node", enabled: false }], { sandbox: true });
    try {
      for (const args of [
        { action: "create", server: { id: "s", command: "node" } },
        { action: "test", server: { id: "s", command: "node" } },
        { action: "tools", server_id: "stored" },
        { action: "diagnose", server_id: "stored" },
        { action: "restart", server_id: "stored" },
        { action: "enable", server_id: "stored" },
        { action: "update", server_id: "stored", patch: { enabled: true } },
      ]) {
        const result = await call(setup, args);
        expect(result.isError, JSON.stringify(args)).toBe(true);
        expect(textOf(result)).toMatch(/sandboxed host refuses/);
        expect(details(result).code).toBe("permission_denied");
      }
      const http = await call(setup, { action: "create", server: { id: "h", transport: "http", url: "http://127.0.0.1:9/mcp", enabled: false } });
      expect(http.isError).toBe(false);
    } finally {
      await setup.close();
    }
  });
});

describe("what the model sees", () => {
  it("McpManager's schema and description", async () => {
    const setup = await setupMcp([]);
    try {
      const tool = setup.registry.tools.find((candidate) => candidate.name === "McpManager");
      expect(tool).toMatchSnapshot();
      expect(setup.registry.metadataByName.McpManager).toEqual({
        groupId: "system",
        kind: "manage",
        isReadOnly: false,
        displayCategory: "mcp",
        annotations: { readOnly: false, listedInPlanMode: false },
      });
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
