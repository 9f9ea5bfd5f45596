import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { McpHostBundles } from "@agent-tools/core/mcp";
import { type McpServerConfigInput, type McpSettings, normalizeMcpServerConfig } from "@agent-tools/mcp";
import { afterAll, describe, expect, it } from "vitest";
import { edgeStdio } from "../../mcp/src/__fixtures__/test-servers.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = realpathSync(mkdtempSync(path.join(os.tmpdir(), "sdk-mcp-deferral-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function directories(name: string) {
  const workdir = path.join(work, name, "project");
  mkdirSync(workdir, { recursive: true });
  return { workdir, dataDir: path.join(work, name, "data") };
}

/** Settings served to the registry, changeable by the test; the edge server is the real stdio fixture of the MCP package's tests. */
function mutableSettings(servers: McpServerConfigInput[]) {
  const settings: McpSettings = { servers: servers.map((server) => normalizeMcpServerConfig(server)), selected: [] };
  return { settings, getSettings: () => settings };
}

describe("buildBuiltinToolRegistry: registry.mcpToolDeferralActive", () => {
  it("is true while MCP tools are deferred behind ToolSearch, and follows the deferral when the servers change", async () => {
    const { workdir, dataDir } = directories("deferred");
    const { settings, getSettings } = mutableSettings([edgeStdio("edge")]);
    let mcp: McpHostBundles | undefined;
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      memory: false,
      mcp: { getSettings, toolSearch: { tokenBudget: 50 }, onReady: (ready) => (mcp = ready) },
    });
    try {
      expect(registry.mcpToolDeferralActive).toBe(true);
      const names = registry.tools.map((tool) => tool.name);
      expect(names).toContain("ToolSearch");
      expect(names.some((name) => name.startsWith("mcp_edge_"))).toBe(false);
      expect(registry.hasTool("mcp_edge_echo")).toBe(true);

      // The server goes away: nothing is deferred any more, and the registry says so.
      settings.servers = [];
      await mcp?.refresh();
      expect(registry.mcpToolDeferralActive).toBe(false);
      expect(registry.tools.map((tool) => tool.name)).not.toContain("ToolSearch");
    } finally {
      await registry.close();
    }
  }, 60_000);

  it("is false when the MCP tools fit the budget or tool search is off, and without MCP", async () => {
    for (const [name, toolSearch] of [
      ["fits", undefined],
      ["off", false],
    ] as const) {
      const { workdir, dataDir } = directories(name);
      const { getSettings } = mutableSettings([edgeStdio("edge")]);
      const registry = await buildBuiltinToolRegistry({
        workdir,
        dataDir,
        memory: false,
        mcp: { getSettings, ...(toolSearch === undefined ? {} : { toolSearch }) },
      });
      try {
        expect(registry.mcpToolDeferralActive, name).toBe(false);
        expect(registry.tools.map((tool) => tool.name)).toContain("mcp_edge_echo");
        expect(registry.tools.map((tool) => tool.name)).not.toContain("ToolSearch");
      } finally {
        await registry.close();
      }
    }
    const { workdir, dataDir } = directories("none");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, memory: false });
    try {
      expect(registry.mcpToolDeferralActive ?? false).toBe(false);
    } finally {
      await registry.close();
    }
  }, 60_000);
});
