import { describe, expect, it } from "vitest";
import { applyMcpOps, createInMemoryMcpSettingsStore } from "./apply-mcp-ops.js";
import { McpConfigError } from "./mcp-errors.js";
import { assertCompleteMcpServers, emptyMcpSettings, normalizeMcpServerConfig, selectEnabledMcpServers, validateMcpServerConfig } from "./settings.js";

const base = () =>
  applyMcpOps(emptyMcpSettings(), [
    { type: "upsert", server: { id: "a", command: "node", args: ["a.js"] } },
    { type: "upsert", server: { id: "b", transport: "http", url: "http://localhost:1/mcp", enabled: false } },
  ]);

describe("normalizeMcpServerConfig", () => {
  it("fills defaults: enabled, stdio, empty args, 60 000 ms; <= 0 means the default", () => {
    expect(normalizeMcpServerConfig({ id: " x ", command: " node " })).toEqual({
      id: "x",
      enabled: true,
      transport: "stdio",
      command: "node",
      args: [],
      url: "",
      timeoutMs: 60_000,
    });
    expect(normalizeMcpServerConfig({ id: "x", timeoutMs: 0 }).timeoutMs).toBe(60_000);
    expect(normalizeMcpServerConfig({ id: "x", timeoutMs: -5 }).timeoutMs).toBe(60_000);
    expect(normalizeMcpServerConfig({ id: "x", timeoutMs: 1500 }).timeoutMs).toBe(1500);
  });
});

describe("applyMcpOps", () => {
  it("appends on upsert and replaces only when the JSON differs", () => {
    const settings = base();
    expect(settings.servers.map((server) => server.id)).toEqual(["a", "b"]);
    expect(applyMcpOps(settings, [{ type: "upsert", server: { id: "a", command: "node", args: ["a.js"] } }])).toBe(settings);
    const replaced = applyMcpOps(settings, [{ type: "upsert", server: { id: "a", command: "node", args: ["other.js"] } }]);
    expect(replaced).not.toBe(settings);
    expect(replaced.servers[0]!.args).toEqual(["other.js"]);
    expect(settings.servers[0]!.args).toEqual(["a.js"]);
  });

  it("patches by id, keeps the id, and treats an unknown id as a no-op", () => {
    const settings = base();
    const patched = applyMcpOps(settings, [{ type: "patch", id: "a", patch: { description: "first", id: "zzz" } as never }]);
    expect(patched.servers[0]).toMatchObject({ id: "a", description: "first", command: "node" });
    expect(applyMcpOps(settings, [{ type: "patch", id: "missing", patch: { description: "x" } }])).toBe(settings);
    expect(applyMcpOps(settings, [{ type: "patch", id: "a", patch: { command: "node" } }])).toBe(settings);
  });

  it("removes, sets enabled, and returns the same object when nothing changed", () => {
    const settings = base();
    expect(applyMcpOps(settings, [{ type: "remove", id: "missing" }])).toBe(settings);
    expect(applyMcpOps(settings, [{ type: "setEnabled", serverIds: ["a"], enabled: true }])).toBe(settings);
    const enabled = applyMcpOps(settings, [{ type: "setEnabled", serverIds: ["a", "b"], enabled: true }]);
    expect(selectEnabledMcpServers(enabled).map((server) => server.id)).toEqual(["a", "b"]);
    expect(applyMcpOps(enabled, [{ type: "remove", id: "a" }]).servers.map((server) => server.id)).toEqual(["b"]);
    expect(applyMcpOps(settings, [])).toBe(settings);
  });

  it("keeps selected to existing ids", () => {
    const settings = { ...base(), selected: ["a", "b", "gone"] };
    const next = applyMcpOps(settings, [{ type: "remove", id: "b" }]);
    expect(next.selected).toEqual(["a"]);
    const cleaned = applyMcpOps(settings, []);
    expect(cleaned.selected).toEqual(["a", "b"]);
  });

  it("backs an in-memory store whose getter is live", () => {
    const seen: number[] = [];
    const store = createInMemoryMcpSettingsStore(undefined, (settings) => seen.push(settings.servers.length));
    const first = store.getSettings();
    store.applyOps([{ type: "upsert", server: { id: "x", command: "node" } }]);
    expect(store.getSettings()).not.toBe(first);
    store.applyOps([{ type: "remove", id: "nope" }]);
    expect(seen).toEqual([1]);
  });
});

describe("validation", () => {
  it("reports incomplete enabled servers in one message", () => {
    const servers = [
      normalizeMcpServerConfig({ id: "", command: "node" }),
      normalizeMcpServerConfig({ id: "s", transport: "stdio" }),
      normalizeMcpServerConfig({ id: "h", transport: "http" }),
      normalizeMcpServerConfig({ id: "w", transport: "websocket", url: "ws://x" }),
    ];
    let error: unknown;
    try {
      assertCompleteMcpServers(servers);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^The following MCP server configurations are incomplete:\n/);
    expect(message).toContain("- server #1: missing id");
    expect(message).toContain("- s: stdio transport without a command");
    expect(message).toContain("- h: http transport without a url");
    expect(message).toContain('- w: unknown transport "websocket"');
    expect(message).toMatch(/Please complete them in Settings -> MCP\.$/);
  });

  it("checks commands, args, URLs, messageUrl, timeout, cwd and duplicates; warns on disabled", () => {
    expect(validateMcpServerConfig({ id: "a", command: "node" })).toEqual({ errors: [], warnings: [] });
    expect(validateMcpServerConfig({ id: "a", command: "node", args: [1 as never] }).errors).toEqual(["args must be an array of strings."]);
    expect(validateMcpServerConfig({ id: "h", transport: "http", url: "ftp://x" }).errors[0]).toMatch(/http\(s\) url/);
    expect(validateMcpServerConfig({ id: "s", transport: "sse", url: "http://h/sse", messageUrl: "/messages" }).errors).toEqual([]);
    expect(validateMcpServerConfig({ id: "a", command: "node", timeoutMs: 0 }).errors).toEqual(["timeoutMs must be a number greater than 0."]);
    expect(validateMcpServerConfig({ id: "a", command: "node", cwd: "/tmp/\0x" }).errors).toEqual(["cwd must not contain a NUL character."]);
    expect(validateMcpServerConfig({ id: "a", command: "node" }, { existingIds: ["a"] }).errors[0]).toMatch(/already exists/);
    expect(validateMcpServerConfig({ id: "a", command: "node", enabled: false }).warnings[0]).toMatch(/disabled/);
  });
});
