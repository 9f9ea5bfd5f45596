import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { defineTool } from "@agent-tools/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { buildMcpToolName } from "./tool-naming.js";
import { EDGE_ENTRY, LONG_TOOL_NAME, type McpTestSetup, edgeStdio, setupMcp, startEdgeHttp, tempDir, textOf } from "./__fixtures__/test-servers.js";

const markerDir = tempDir("mcp-edge-marker-");
const marker = path.join(markerDir.dir, "marker.log");
const markerLines = () => {
  try {
    return readFileSync(marker, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};
afterAll(() => markerDir.cleanup());

describe("edge server over stdio", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    const builtin = defineTool({
      name: "mcp_edge_echo",
      description: "A built-in that happens to share a name with an MCP tool.",
      inputSchema: z.object({ text: z.string() }),
      metadata: { groupId: "system", kind: "custom", isReadOnly: true, displayCategory: "other" },
      execute: ({ text }) => ({ content: `builtin:${text}` }),
    });
    setup = await setupMcp(
      [
        edgeStdio("edge", { EDGE_MARKER_FILE: marker }),
        edgeStdio("other", { EDGE_MARKER_FILE: marker }),
        edgeStdio("edge_long_server_id"),
        { id: "hang", command: process.execPath, args: [path.join(path.dirname(EDGE_ENTRY), "hang-server.mjs")], timeoutMs: 5_000 },
      ],
      {
        extraBundles: [{ id: "builtin", trusted: true, listTools: () => [builtin] }],
      },
    );
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("skips an MCP tool that collides with a built-in, with a warning", async () => {
    const result = await setup.registry.executeToolCall({ id: "1", name: "mcp_edge_echo", arguments: { text: "x" } });
    expect(textOf(result)).toBe("builtin:x");
    expect(setup.logger.warnings.some((warning) => warning.includes("mcp_edge_echo") && warning.includes("skipped"))).toBe(true);
    expect(setup.registry.metadataByName.mcp_other_echo?.serverId).toBe("other");
  });

  it("names a very long tool with the FNV-1a suffix and calls it", async () => {
    const name = buildMcpToolName("edge_long_server_id", LONG_TOOL_NAME);
    expect(name).toMatch(/^mcp_edge_long_server_this_is_a_very_long_tool_[0-9a-f]{8}$/);
    expect(setup.mcp.resolveToolName(name)).toEqual({ serverId: "edge_long_server_id", toolName: LONG_TOOL_NAME });
    const result = await setup.registry.executeToolCall({ id: "2", name, arguments: {} });
    expect(textOf(result)).toBe("long name ok");
  });

  it("keeps the server's isError and its message", async () => {
    const result = await setup.registry.executeToolCall({ id: "3", name: "mcp_other_fail", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("boom: the tool failed on purpose");
    expect(result.details).toMatchObject({ serverId: "other", tool: "fail", mcp: { isError: true } });
  });

  it("maps text, image, resource, resource link and structured content", async () => {
    const result = await setup.registry.executeToolCall({ id: "4", name: "mcp_other_mixed", arguments: {} });
    expect(result.content.map((block) => block.type)).toEqual(["text", "image", "text", "text"]);
    expect(textOf(result)).toContain("[resource memo://one (text/plain)]\nresource body");
    expect(textOf(result)).toContain("[resource link two memo://two]");
    expect(result.details).toMatchObject({ mcp: { contentTypes: ["text", "image", "resource", "resource_link"], structuredContent: { answer: 42 } } });
  });

  it("rejects unknown keys when the schema forbids them and passes them when it allows them", async () => {
    const rejected = await setup.registry.executeToolCall({ id: "5", name: "mcp_other_echo", arguments: { text: "a", extra: 1 } });
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toContain("extra");
    const passed = await setup.registry.executeToolCall({ id: "6", name: "mcp_other_extra_keys", arguments: { known: "k", other: 2 } });
    expect(JSON.parse(textOf(passed))).toEqual({ known: "k", other: 2 });
  });

  it("aborts a slow call midway, sends the server a cancellation and frees the server for the next call", async () => {
    const controller = new AbortController();
    let updates = 0;
    const pending = setup.registry.executeToolCall(
      { id: "slow-1", name: "mcp_edge_slow", arguments: { ms: 20_000 } },
      {
        signal: controller.signal,
        onUpdate: () => {
          updates += 1;
          if (updates === 2) controller.abort();
        },
      },
    );
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    await vi.waitFor(() => expect(markerLines().some((line) => line.startsWith("slow-cancelled"))).toBe(true), { timeout: 10_000 });
    const next = await setup.registry.executeToolCall({ id: "after", name: "mcp_edge_extra_keys", arguments: { known: "after abort" } });
    expect(textOf(next)).toContain("after abort");
  });

  it("lets a call aborted while queued leave the queue without reaching the server", async () => {
    const before = markerLines().length;
    const first = setup.registry.executeToolCall({ id: "q1", name: "mcp_edge_slow", arguments: { ms: 1_500 } });
    await vi.waitFor(
      () =>
        expect(
          markerLines()
            .slice(before)
            .some((line) => line.startsWith("slow-start")),
        ).toBe(true),
      { timeout: 10_000 },
    );
    const controller = new AbortController();
    const queued = setup.registry.executeToolCall({ id: "q2", name: "mcp_edge_slow", arguments: { ms: 50 } }, { signal: controller.signal });
    controller.abort();
    const cancelled = await queued;
    expect(cancelled.details).toMatchObject({ cancelled: true });
    expect((await first).isError).toBe(false);
    const third = await setup.registry.executeToolCall({ id: "q3", name: "mcp_edge_slow", arguments: { ms: 10 } });
    expect(third.isError).toBe(false);
    const starts = markerLines()
      .slice(before)
      .filter((line) => line.startsWith("slow-start"));
    expect(starts).toHaveLength(2);
  });

  it("serialises calls to one server while different servers run in parallel", async () => {
    const before = markerLines().length;
    await Promise.all([
      setup.registry.executeToolCall({ id: "a1", name: "mcp_edge_slow", arguments: { ms: 1_000 } }),
      setup.registry.executeToolCall({ id: "a2", name: "mcp_edge_slow", arguments: { ms: 1_000 } }),
      setup.registry.executeToolCall({ id: "b1", name: "mcp_other_slow", arguments: { ms: 2_000 } }),
    ]);
    const lines = markerLines().slice(before);
    // Lines are "<event> <requestId>"; the two edge calls never overlap.
    const edgeEvents = lines.filter((line) => /^slow-(start|done)/.test(line));
    expect(edgeEvents).toHaveLength(6);
    const starts = edgeEvents.map((line, index) => (line.startsWith("slow-start") ? index : -1)).filter((index) => index >= 0);
    expect(starts).toHaveLength(3);
    // "other" started before the first edge call finished: both servers were busy at once.
    const firstDone = edgeEvents.findIndex((line) => line.startsWith("slow-done"));
    expect(starts.filter((index) => index < firstDone).length).toBe(2);
    // The second edge call started only after one call was done.
    expect(starts[2]!).toBeGreaterThan(firstDone);
  });

  it("times out a call that never answers, by the server's timeoutMs", async () => {
    const result = await setup.registry.executeToolCall({ id: "hang", name: "mcp_hang_hang", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer within 5000 ms/);
  });

  it("refreshes its tools on tools/list_changed", async () => {
    const result = await setup.registry.executeToolCall({ id: "add", name: "mcp_other_add_tool", arguments: { name: "fresh" } });
    expect(textOf(result)).toBe("added fresh");
    await vi.waitFor(() => expect(setup.registry.hasTool("mcp_other_fresh")).toBe(true), { timeout: 10_000 });
    const fresh = await setup.registry.executeToolCall({ id: "fresh", name: "mcp_other_fresh", arguments: {} });
    expect(textOf(fresh)).toBe("fresh ran");
  });

  it("reports a crash mid-call with the stderr tail and reconnects on the next call", async () => {
    const pidBefore = Number(textOf(await setup.registry.executeToolCall({ id: "p1", name: "mcp_other_pid", arguments: {} })));
    const crashed = await setup.registry.executeToolCall({ id: "crash", name: "mcp_other_crash", arguments: {} });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/closed the connection during the call/);
    expect(textOf(crashed)).toContain("crashing on purpose");
    const pidAfter = Number(textOf(await setup.registry.executeToolCall({ id: "p2", name: "mcp_other_pid", arguments: {} })));
    expect(pidAfter).toBeGreaterThan(0);
    expect(pidAfter).not.toBe(pidBefore);
  });

  it("closes every server process on registry.close()", async () => {
    const pid = Number(textOf(await setup.registry.executeToolCall({ id: "p3", name: "mcp_other_pid", arguments: {} })));
    await setup.close();
    const alive = () => {
      try {
        process.kill(pid, 0);
        return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(alive()).toBe(false), { timeout: 10_000 });
  });
});

describe("edge server over Streamable HTTP", () => {
  it("re-initialises after an HTTP 404 session loss", async () => {
    const server = await startEdgeHttp();
    const setup = await setupMcp([{ id: "web", transport: "http", url: server.url, timeoutMs: 20_000 }]);
    try {
      expect(textOf(await setup.registry.executeToolCall({ id: "1", name: "mcp_web_extra_keys", arguments: { known: "one" } }))).toContain("one");
      expect(textOf(await setup.registry.executeToolCall({ id: "2", name: "mcp_web_drop_sessions", arguments: {} }))).toBe("dropped");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = await setup.registry.executeToolCall({ id: "3", name: "mcp_web_extra_keys", arguments: { known: "two" } });
      expect(after.isError).toBe(false);
      expect(textOf(after)).toContain("two");
    } finally {
      await setup.close();
      await server.stop();
    }
  });
});

describe("closing while a server is still starting", () => {
  it("aborts the pending connect instead of waiting for its timeout", async () => {
    const setup = await setupMcp([]);
    const marker = `hanging-mcp-${process.pid}-${Date.now()}`;
    const hanging = { id: "hanging", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)", marker], timeoutMs: 300_000 };
    const created = await setup.registry.executeToolCall({ id: "c", name: "McpManager", arguments: { action: "create", server: hanging } });
    expect(created.isError).toBe(false);
    await vi.waitFor(() => expect(setup.mcp.runtime.peek("hanging")?.state).toBe("connecting"), { timeout: 10_000 });
    const refreshing = setup.mcp.refresh();
    await setup.close();
    const report = await refreshing;
    expect(report.failed.map((failure) => failure.serverId)).toEqual(["hanging"]);
    expect(setup.mcp.runtime.peek("hanging")).toBeUndefined();
    // The server ignores stdin: closing must still end its process.
    expect(liveProcessesWith(marker)).toEqual([]);
  }, 30_000);
});

/** Live (non-zombie) processes whose command line contains `marker`. */
function liveProcessesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") pids.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return pids;
}
