// Manifest refresh with real stdio servers: list_changed, a tool gone from the server, idle stop and restart.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { McpManifest } from "@agent-tools/core/mcp";
import { type McpTestSetup, setupMcp, tempDir, textOf } from "../__fixtures__/test-servers.js";
import { InMemoryMcpManifestStore } from "../manifest/in-memory-mcp-manifest-store.js";
import { mcpConfigHash } from "../manifest/mcp-config-hash.js";
import { type McpServerConfigInput, normalizeMcpServerConfig } from "../settings.js";
import { lazyServer, processAlive, recordedStarts } from "./__fixtures__/lazy-servers.js";

const toolNames = (setup: McpTestSetup) => setup.registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp_"));
const hashOf = (input: McpServerConfigInput) => mcpConfigHash(normalizeMcpServerConfig(input), "");
const cachedNames = async (store: InMemoryMcpManifestStore, input: McpServerConfigInput) =>
  (await store.get(input.id!, hashOf(input)))?.tools.map((tool) => tool.name);

/** The descriptions and input properties of the fixture's control tools, as the server lists them. */
const CONTROL: Record<string, { description: string; properties: Record<string, unknown> }> = {
  sleep: { description: "Answers after ms milliseconds.", properties: { ms: { type: "number" } } },
  forget: { description: "Drops a tool silently.", properties: { tool: { type: "string" } } },
  remove: { description: "Drops a tool and notifies.", properties: { tool: { type: "string" } } },
};

/** The manifest the fixture server lists (same definitions: a call checked against it is sent). */
function manifestOf(input: McpServerConfigInput, tools: readonly string[]): McpManifest {
  return {
    serverId: input.id!,
    configHash: hashOf(input),
    fetchedAt: Date.now(),
    tools: tools.map((name) => ({
      name,
      description: CONTROL[name]?.description ?? `${name} of ${input.id}.`,
      inputSchema: { type: "object", properties: CONTROL[name]?.properties ?? {} },
    })),
  };
}

describe("lazy lifecycle: refresh and idle stop", () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function setup(servers: McpServerConfigInput[], store: InMemoryMcpManifestStore, idleStopMs?: number) {
    const made = await setupMcp(servers, { manifestCache: store, toolSearch: false, ...(idleStopMs === undefined ? {} : { idleStopMs }) });
    cleanups.push(() => made.close());
    return made;
  }
  function records() {
    const record = tempDir("mcp-lazy-record-");
    cleanups.push(record.cleanup);
    return record.dir;
  }

  it("tools/list_changed updates the stored manifest and the tool list", async () => {
    const dir = records();
    const server = lazyServer("notes", dir, ["keep", "drop"]);
    const store = new InMemoryMcpManifestStore();
    const made = await setup([server], store);
    expect(await cachedNames(store, server)).toContain("drop");
    const removed = await made.registry.executeToolCall({ id: "r", name: "mcp_notes_remove", arguments: { tool: "drop" } });
    expect(textOf(removed)).toBe("dropped drop");
    await vi.waitFor(async () => expect(await cachedNames(store, server)).not.toContain("drop"), { timeout: 10_000, interval: 50 });
    expect(await cachedNames(store, server)).toContain("keep");
    expect(toolNames(made)).not.toContain("mcp_notes_drop");
    expect(toolNames(made)).toContain("mcp_notes_keep");
  });

  it("a cached tool the server no longer has: the call is not_found, the manifest and the tool list are updated", async () => {
    const dir = records();
    const server = lazyServer("ghosts", dir, ["real"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(server, ["real", "ghost", "sleep", "forget", "remove"]));
    const made = await setup([server], store);
    expect(toolNames(made)).toContain("mcp_ghosts_ghost");
    expect(recordedStarts(dir)).toEqual([]);
    const result = await made.registry.executeToolCall({ id: "g", name: "mcp_ghosts_ghost", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "not_found" });
    expect(textOf(result)).toMatch(/mcp_ghosts_ghost is gone.*ToolSearch.*McpManager action=tools server_id=ghosts/s);
    expect(recordedStarts(dir)).toHaveLength(1);
    expect(await cachedNames(store, server)).toEqual(["real", "sleep", "forget", "remove"]);
    expect(toolNames(made)).not.toContain("mcp_ghosts_ghost");
    const real = await made.registry.executeToolCall({ id: "r", name: "mcp_ghosts_real", arguments: {} });
    expect(textOf(real)).toMatch(/^ghosts:real:\d+$/);
  });

  it("a tool the running server dropped without list_changed: the failed call re-lists, puts and answers not_found", async () => {
    const dir = records();
    const server = lazyServer("silent", dir, ["stays", "vanishes"]);
    const store = new InMemoryMcpManifestStore();
    const made = await setup([server], store);
    await made.registry.executeToolCall({ id: "f", name: "mcp_silent_forget", arguments: { tool: "vanishes" } });
    // The client was not told: the tool is still listed and cached.
    expect(toolNames(made)).toContain("mcp_silent_vanishes");
    expect(await cachedNames(store, server)).toContain("vanishes");
    const result = await made.registry.executeToolCall({ id: "v", name: "mcp_silent_vanishes", arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "not_found" });
    expect(textOf(result)).toContain("mcp_silent_vanishes is gone");
    expect(toolNames(made)).not.toContain("mcp_silent_vanishes");
    // Puts of one server are coalesced (at most one a second; the newest listing waits): wait for it.
    await vi.waitFor(async () => expect(await cachedNames(store, server)).not.toContain("vanishes"), { timeout: 10_000, interval: 50 });
    expect(recordedStarts(dir)).toHaveLength(1);
  });

  it("an idle server stops (its process ends, its tools stay listed) and the next call starts it again", async () => {
    const dir = records();
    const server = lazyServer("idle", dir, ["ping"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(server, ["ping", "sleep", "forget", "remove"]));
    const made = await setup([server], store, 200);
    const first = await made.registry.executeToolCall({ id: "1", name: "mcp_idle_ping", arguments: {} });
    const [start] = recordedStarts(dir);
    expect(textOf(first)).toBe(`idle:ping:${start!.pid}`);
    await vi.waitFor(() => expect(processAlive(start!.pid)).toBe(false), { timeout: 10_000, interval: 50 });
    expect(made.mcp.servers()[0]).toMatchObject({ serverId: "idle", state: "manifest_known", toolsCount: 4 });
    expect(toolNames(made)).toContain("mcp_idle_ping");
    const second = await made.registry.executeToolCall({ id: "2", name: "mcp_idle_ping", arguments: {} });
    const starts = recordedStarts(dir);
    expect(starts).toHaveLength(2);
    expect(textOf(second)).toBe(`idle:ping:${starts[1]!.pid}`);
  });

  it("never stops a server while a call runs: the idle clock starts when the call ends", async () => {
    const dir = records();
    const server = lazyServer("busy", dir, ["ping"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(server, ["ping", "sleep", "forget", "remove"]));
    const made = await setup([server], store, 50);
    // The call lasts many idle periods; an idle stop during it would end the process and fail the call.
    const result = await made.registry.executeToolCall({ id: "s", name: "mcp_busy_sleep", arguments: { ms: 600 } });
    const [start] = recordedStarts(dir);
    expect(result.isError).toBe(false);
    expect(textOf(result)).toBe(`slept ${start!.pid}`);
    await vi.waitFor(() => expect(processAlive(start!.pid)).toBe(false), { timeout: 10_000, interval: 25 });
    expect(recordedStarts(dir)).toHaveLength(1);
  });

  it("McpManager stop with a cache ends the process and keeps the tools listed (manifest_known)", async () => {
    const dir = records();
    const server = lazyServer("halt", dir, ["ping"]);
    const made = await setup([server], new InMemoryMcpManifestStore());
    const [start] = recordedStarts(dir);
    const stopped = await made.registry.executeToolCall({ id: "s", name: "McpManager", arguments: { action: "stop", server_id: "halt" } });
    expect(stopped.details).toMatchObject({ stopped: ["halt"] });
    await vi.waitFor(() => expect(processAlive(start!.pid)).toBe(false), { timeout: 10_000, interval: 50 });
    expect(made.mcp.servers()[0]).toMatchObject({ state: "manifest_known", toolsCount: 4 });
    expect(toolNames(made)).toContain("mcp_halt_ping");
  });

  it("rejects an invalid idleStopMs naming the option", async () => {
    await expect(setupMcp([], { idleStopMs: -1 })).rejects.toMatchObject({ name: "SdkError", code: "invalid_options", message: /idleStopMs/ });
  });
});
