import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { McpConfigError, McpLoadError } from "./mcp-errors.js";
import { createMcpToolBundles } from "./mcp-tool-bundles.js";
import type { McpToolEntry } from "./dynamic-tools.js";
import { scoreToolSearch } from "./tool-search.js";
import { type McpTestSetup, edgeStdio, recordingLogger, setupMcp, textOf } from "./__fixtures__/test-servers.js";

const entry = (serverId: string, toolName: string, description: string) =>
  ({ serverId, toolName, remote: { name: toolName }, definition: { name: `mcp_${serverId}_${toolName}`, description } }) as unknown as McpToolEntry;

describe("ToolSearch scoring", () => {
  it("scores name x3, server x2, description x1 per query word", () => {
    const hits = scoreToolSearch(
      [
        entry("github", "create_issue", "[MCP:github] Opens an issue"),
        entry("jira", "issue_search", "[MCP:jira] Finds tickets"),
        entry("notes", "write", "[MCP:notes] Writes an issue note"),
      ],
      "issue github",
    );
    expect(hits).toEqual([
      { name: "mcp_github_create_issue", serverId: "github", score: 3 + 1 + 3 + 2 + 1 },
      { name: "mcp_jira_issue_search", serverId: "jira", score: 3 },
      { name: "mcp_notes_write", serverId: "notes", score: 1 },
    ]);
    expect(scoreToolSearch([entry("a", "b", "c")], "zzz")).toEqual([]);
  });
});

describe("ToolSearch lazy loading", () => {
  let setup: McpTestSetup;
  beforeAll(async () => {
    setup = await setupMcp([edgeStdio("edge")], { toolSearch: { tokenBudget: 50 } });
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("hides MCP tools past the token budget but keeps them callable, and offers ToolSearch", async () => {
    expect(setup.mcp.isDeferralActive()).toBe(true);
    const names = setup.registry.tools.map((tool) => tool.name);
    expect(names).toContain("ToolSearch");
    expect(names).toContain("McpManager");
    expect(names.some((name) => name.startsWith("mcp_"))).toBe(false);
    expect(setup.registry.hasTool("mcp_edge_pid")).toBe(true);
    const result = await setup.registry.executeToolCall({ id: "1", name: "mcp_edge_pid", arguments: {} });
    expect(result.isError).toBe(false);
  });

  it("finds and activates tools by query, returning their schemas", async () => {
    const result = await setup.registry.executeToolCall({ id: "2", name: "ToolSearch", arguments: { query: "echo text", max_results: 1 } });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("## mcp_edge_echo");
    expect(textOf(result)).toContain('parameters: {"type":"object"');
    expect(result.details).toMatchObject({ activated: ["mcp_edge_echo"] });
    const names = setup.registry.tools.map((tool) => tool.name);
    expect(names).toContain("mcp_edge_echo");
    expect(names).not.toContain("mcp_edge_slow");
    const none = await setup.registry.executeToolCall({ id: "3", name: "ToolSearch", arguments: { query: "kubernetes" } });
    expect(textOf(none)).toMatch(/No MCP tool matches "kubernetes".*edge/);
    const tooMany = await setup.registry.executeToolCall({ id: "4", name: "ToolSearch", arguments: { query: "x", max_results: 11 } });
    expect(tooMany.isError).toBe(true);
  });

  it("tells the registry's onToolsChanged listeners when ToolSearch exposes a tool and when a server's list changes", async () => {
    const own = await setupMcp([edgeStdio("edge")], { toolSearch: { tokenBudget: 50 } });
    try {
      const seen: Array<{ exposed: string[]; fresh: boolean }> = [];
      own.registry.onToolsChanged(() =>
        seen.push({
          exposed: own.registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("mcp_")),
          fresh: own.registry.hasTool("mcp_edge_fresh"),
        }),
      );
      await own.registry.executeToolCall({ id: "1", name: "ToolSearch", arguments: { query: "add_tool", max_results: 1 } });
      expect(seen).toEqual([{ exposed: ["mcp_edge_add_tool"], fresh: false }]);
      await own.registry.executeToolCall({ id: "2", name: "ToolSearch", arguments: { query: "add_tool", max_results: 1 } });
      expect(seen).toHaveLength(1);
      const added = await own.registry.executeToolCall({ id: "3", name: "mcp_edge_add_tool", arguments: { name: "fresh" } });
      expect(textOf(added)).toBe("added fresh");
      await vi.waitFor(() => expect(seen.at(-1)?.fresh).toBe(true), { timeout: 10_000 });
    } finally {
      await own.close();
    }
  });

  it("stays off under the budget and in the cron scope", async () => {
    const small = await setupMcp([edgeStdio("edge")]);
    const cron = await setupMcp([edgeStdio("edge")], { runtimeScope: "cron", toolSearch: { tokenBudget: 50 } });
    try {
      expect(small.mcp.isDeferralActive()).toBe(false);
      expect(small.registry.tools.map((tool) => tool.name)).toContain("mcp_edge_echo");
      expect(small.registry.hasTool("ToolSearch")).toBe(false);
      expect(cron.mcp.isDeferralActive()).toBe(false);
      expect(cron.registry.hasTool("ToolSearch")).toBe(false);
      expect(cron.registry.tools.map((tool) => tool.name)).toContain("mcp_edge_echo");
    } finally {
      await Promise.all([small.close(), cron.close()]);
    }
  });
});

describe("load failure modes", () => {
  const broken = { id: "broken", command: "/nonexistent/mcp-binary" };

  it("continue: reports to onLoadError and goes on without the server", async () => {
    const errors: Error[] = [];
    const setup = await setupMcp([broken], { onLoadError: (error) => errors.push(error) });
    try {
      expect(errors).toHaveLength(1);
      expect(errors[0]).toBeInstanceOf(McpLoadError);
      expect(errors[0]!.message).toMatch(/^All MCP servers failed to load:\n- broken: .*ENOENT/);
      expect(setup.registry.hasTool("McpManager")).toBe(true);
    } finally {
      await setup.close();
    }
  });

  it("throw: rejects when every server fails, or when a configuration is incomplete", async () => {
    const logger = recordingLogger();
    await expect(
      createMcpToolBundles({ getSettings: () => ({ servers: [broken as never], selected: [] }), loadFailureMode: "throw", logger }),
    ).rejects.toBeInstanceOf(McpLoadError);
    const incomplete = createMcpToolBundles({
      getSettings: () => ({ servers: [{ id: "half", transport: "http", enabled: true } as never], selected: [] }),
      loadFailureMode: "throw",
      logger,
    });
    await expect(incomplete).rejects.toBeInstanceOf(McpConfigError);
    await expect(incomplete).rejects.toThrow(/The following MCP server configurations are incomplete:\n- half: http transport without a url/);
  });

  it("a partial failure keeps the working servers, even in throw mode", async () => {
    const errors: Error[] = [];
    const setup = await setupMcp([broken, edgeStdio("edge")], { loadFailureMode: "throw", onLoadError: (error) => errors.push(error) });
    try {
      expect(errors[0]?.message).toMatch(/^Some MCP servers failed to load/);
      expect(setup.registry.hasTool("mcp_edge_echo")).toBe(true);
    } finally {
      await setup.close();
    }
  });

  it("skips stdio servers on a sandboxed host", async () => {
    const errors: Error[] = [];
    const setup = await setupMcp([edgeStdio("edge")], { sandbox: true, onLoadError: (error) => errors.push(error) });
    try {
      expect(errors[0]?.message).toMatch(/sandboxed/);
      expect(setup.registry.hasTool("mcp_edge_echo")).toBe(false);
    } finally {
      await setup.close();
    }
  });
});
