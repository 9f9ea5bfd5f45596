// The lazy lifecycle with real stdio servers: builds over cached manifests start nothing, a call starts exactly its server.
import { afterEach, describe, expect, it } from "vitest";
import type { McpManifest } from "@agent-tools/core/mcp";
import { type McpTestSetup, setupMcp, tempDir, textOf } from "../__fixtures__/test-servers.js";
import { InMemoryMcpManifestStore } from "../manifest/in-memory-mcp-manifest-store.js";
import { mcpConfigHash } from "../manifest/mcp-config-hash.js";
import { type McpServerConfigInput, normalizeMcpServerConfig } from "../settings.js";
import { lazyServer, lazyServers, recordedStarts } from "./__fixtures__/lazy-servers.js";

const CONTROL_TOOLS = ["sleep", "forget", "remove"];

/** The manifest the fixture server would list for `input`, fetched `ageMs` ago. */
function manifestOf(input: McpServerConfigInput, tools: readonly string[], ageMs = 0): McpManifest {
  const config = normalizeMcpServerConfig(input);
  return {
    serverId: config.id,
    configHash: mcpConfigHash(config, ""),
    fetchedAt: Date.now() - ageMs,
    tools: [...tools, ...CONTROL_TOOLS].map((name) => ({ name, description: `${name} of ${config.id}.`, inputSchema: { type: "object", properties: {} } })),
  };
}

const toolNames = (setup: McpTestSetup) => setup.registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp_"));

describe("lazy lifecycle: start on first use", () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  function records() {
    const record = tempDir("mcp-lazy-record-");
    cleanups.push(record.cleanup);
    return record.dir;
  }
  async function setup(servers: McpServerConfigInput[], manifestCache: InMemoryMcpManifestStore | false | undefined) {
    const made = await setupMcp(servers, { manifestCache, toolSearch: false });
    cleanups.push(() => made.close());
    return made;
  }

  it("builds a registry of 10 stdio servers from cached manifests without starting one; a call starts exactly that server", async () => {
    const dir = records();
    const servers = lazyServers(10, dir);
    const store = new InMemoryMcpManifestStore();
    for (const [index, server] of servers.entries()) await store.put(manifestOf(server, [`s${index}_a`, `s${index}_b`]));
    const made = await setup(servers, store);
    expect(recordedStarts(dir)).toEqual([]);
    expect(toolNames(made)).toHaveLength(10 * 5);
    for (let index = 0; index < 10; index += 1) expect(toolNames(made)).toContain(`mcp_s${index}_s${index}_b`);
    expect(new Set(made.mcp.servers().map((server) => server.state))).toEqual(new Set(["manifest_known"]));

    const result = await made.registry.executeToolCall({ id: "c", name: "mcp_s3_s3_a", arguments: {} });
    expect(result.isError).toBe(false);
    const starts = recordedStarts(dir);
    expect(starts.map((start) => start.name)).toEqual(["s3"]);
    expect(textOf(result)).toBe(`s3:s3_a:${starts[0]!.pid}`);
    const states = Object.fromEntries(made.mcp.servers().map((server) => [server.serverId, server.state]));
    expect(states.s3).toBe("invoked");
    expect(Object.values(states).filter((state) => state === "manifest_known")).toHaveLength(9);
    // The live listing equals the manifest: the tools the model sees did not change.
    expect(toolNames(made)).toHaveLength(50);
  });

  it("a cold build starts all 10 servers and fills the cache; a second registry over the same store starts none", async () => {
    const dir = records();
    const servers = lazyServers(10, dir);
    const store = new InMemoryMcpManifestStore();
    const cold = await setup(servers, store);
    expect(new Set(recordedStarts(dir).map((start) => start.name)).size).toBe(10);
    expect(new Set(cold.mcp.servers().map((server) => server.state))).toEqual(new Set(["started"]));
    for (const server of servers) {
      const cached = await store.get(server.id!, mcpConfigHash(normalizeMcpServerConfig(server), ""));
      expect(cached?.tools.map((tool) => tool.name)).toEqual([`${server.id}_a`, `${server.id}_b`, ...CONTROL_TOOLS]);
      expect(cached?.serverInfo).toEqual({ name: `lazy-${server.id}`, version: "1.0.0" });
    }
    await cold.close();
    const startsAfterCold = recordedStarts(dir).length;

    const warm = await setup(servers, store);
    expect(recordedStarts(dir)).toHaveLength(startsAfterCold);
    expect(toolNames(warm).sort()).toEqual(toolNames(cold).sort());
    const result = await warm.registry.executeToolCall({ id: "w", name: "mcp_s7_s7_b", arguments: {} });
    expect(textOf(result)).toMatch(/^s7:s7_b:\d+$/);
    expect(
      recordedStarts(dir)
        .slice(startsAfterCold)
        .map((start) => start.name),
    ).toEqual(["s7"]);
  });

  it("starts a server whose configuration changed (another hash: a miss)", async () => {
    const dir = records();
    const before = lazyServer("cfg", dir, ["one"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(before, ["one"]));
    const after = lazyServer("cfg", dir, ["one", "two"]);
    const made = await setup([after], store);
    expect(recordedStarts(dir).map((start) => start.name)).toEqual(["cfg"]);
    expect(toolNames(made)).toContain("mcp_cfg_two");
    const cached = await store.get("cfg", mcpConfigHash(normalizeMcpServerConfig(after), ""));
    expect(cached?.tools.map((tool) => tool.name)).toContain("two");
    // The other configuration's manifest stays (a store keeps up to 16 per server): switching back starts nothing.
    const kept = (await store.get("cfg", mcpConfigHash(normalizeMcpServerConfig(before), "")))?.tools.map((tool) => tool.name);
    expect(kept).toContain("one");
    expect(kept).not.toContain("two");
  });

  it("refetches a manifest older than the server's ttlMs, and one with ttlMs 0 at every build", async () => {
    const dir = records();
    const aged = lazyServer("aged", dir, ["fresh_tool"], { ttlMs: 60_000 });
    const zero = lazyServer("zero", dir, ["z"], { ttlMs: 0 });
    const young = lazyServer("young", dir, ["y"], { ttlMs: 60_000 });
    const store = new InMemoryMcpManifestStore();
    // The cached listing of "aged" is two minutes old and names a tool the server no longer has.
    await store.put(manifestOf(aged, ["stale_tool"], 120_000));
    await store.put(manifestOf(zero, ["z"]));
    await store.put(manifestOf(young, ["y"], 1_000));
    const made = await setup([aged, zero, young], store);
    expect(
      recordedStarts(dir)
        .map((start) => start.name)
        .sort(),
    ).toEqual(["aged", "zero"]);
    expect(toolNames(made)).toContain("mcp_aged_fresh_tool");
    expect(toolNames(made)).not.toContain("mcp_aged_stale_tool");
    const cached = await store.get("aged", mcpConfigHash(normalizeMcpServerConfig(aged), ""));
    expect(cached?.tools.map((tool) => tool.name)).toContain("fresh_tool");
    expect(Date.now() - cached!.fetchedAt).toBeLessThan(60_000);
  });

  it("manifestCache false (and no cache) keeps the eager behaviour: every server starts at build", async () => {
    const dir = records();
    const servers = lazyServers(3, dir);
    const store = new InMemoryMcpManifestStore();
    for (const [index, server] of servers.entries()) await store.put(manifestOf(server, [`s${index}_a`, `s${index}_b`]));
    const off = await setup(servers, false);
    expect(recordedStarts(dir)).toHaveLength(3);
    expect(new Set(off.mcp.servers().map((server) => server.state))).toEqual(new Set(["started"]));
    await off.close();
    await setup(servers, undefined);
    expect(recordedStarts(dir)).toHaveLength(6);
  });

  it("a sandboxed host lists a stdio server's cached tools without starting it, and refuses the call as before", async () => {
    const dir = records();
    const server = lazyServer("boxed", dir, ["a"]);
    const store = new InMemoryMcpManifestStore();
    await store.put(manifestOf(server, ["a"]));
    const made = await setupMcp([server], { manifestCache: store, toolSearch: false, sandbox: true });
    cleanups.push(() => made.close());
    expect(toolNames(made)).toContain("mcp_boxed_a");
    const result = await made.registry.executeToolCall({ id: "b", name: "mcp_boxed_a", arguments: {} });
    expect(result.details).toMatchObject({ code: "permission_denied" });
    expect(recordedStarts(dir)).toEqual([]);
  });

  it("a cached manifest that declares resources lists the resource tools without starting the server", async () => {
    const dir = records();
    const server = lazyServer("docs", dir, ["a"]);
    const store = new InMemoryMcpManifestStore();
    await store.put({ ...manifestOf(server, ["a"]), capabilities: { resources: true, resourceSubscribe: false, prompts: false, tasks: false } });
    const made = await setup([server], store);
    const names = made.registry.tools.map((tool) => tool.name);
    expect(names).toContain("ListMcpResources");
    expect(names).toContain("ReadMcpResource");
    expect(recordedStarts(dir)).toEqual([]);
  });

  it("shows lifecycle, manifest tokens and fetch time in McpManager list and read", async () => {
    const dir = records();
    const server = lazyServer("shown", dir, ["a", "b"]);
    const store = new InMemoryMcpManifestStore();
    const manifest = manifestOf(server, ["a", "b"]);
    await store.put(manifest);
    const made = await setup([server], store);
    const list = await made.registry.executeToolCall({ id: "l", name: "McpManager", arguments: { action: "list" } });
    const [lifecycle] = (list.details as { lifecycles: Array<Record<string, unknown>> }).lifecycles;
    expect(lifecycle).toMatchObject({ serverId: "shown", state: "manifest_known", toolsCount: 5, manifestFetchedAt: manifest.fetchedAt });
    expect(lifecycle!.manifestTokens).toBeGreaterThan(0);
    expect(textOf(list)).toContain(`lifecycle=manifest_known tools=5 manifestTokens=${lifecycle!.manifestTokens} manifestFetchedAt=`);
    expect(recordedStarts(dir)).toEqual([]);
    await made.registry.executeToolCall({ id: "c", name: "mcp_shown_a", arguments: {} });
    const read = await made.registry.executeToolCall({ id: "r", name: "McpManager", arguments: { action: "read", server_id: "shown" } });
    expect(textOf(read)).toContain("lifecycle=invoked tools=5");
    const restarted = await made.registry.executeToolCall({ id: "s", name: "McpManager", arguments: { action: "restart", server_id: "shown" } });
    expect(restarted.isError).toBe(false);
    expect(made.mcp.servers()[0]).toMatchObject({ state: "started" });
    expect(recordedStarts(dir)).toHaveLength(2);
    // The restart re-listed and put the manifest again.
    expect((await store.get("shown", manifest.configHash))!.fetchedAt).toBeGreaterThanOrEqual(manifest.fetchedAt);
  });
});
