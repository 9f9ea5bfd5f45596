/**
 * The hints `tools/list` reports for every built-in tool, and which tools
 * plan mode lists, pinned name by name: the tool metadata may change form
 * (declared annotations instead of hints guessed from the kind), what MCP
 * clients and the planning model see may not.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "@agent-tools/sdk";
import { afterAll, describe, expect, it } from "vitest";
import { edgeServerSettings, tempWorkdir } from "./testing-helpers.js";
import { listMcpTools, toolAnnotations } from "./tool-list.js";

const work = tempWorkdir("builtin-hints-");
afterAll(() => work.cleanup());

const READ_ONLY_FILE = { readOnlyHint: true, openWorldHint: false };
const CHANGES_STATE = { readOnlyHint: false };

/** The hints of today's built-in tools (and an MCP server's proxied tool). */
const EXPECTED_HINTS = {
  Read: READ_ONLY_FILE,
  Image: READ_ONLY_FILE,
  Write: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  Edit: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
  // An insert run twice inserts two cells: not idempotent, unlike Write and Delete.
  NotebookEdit: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  Delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  List: READ_ONLY_FILE,
  Glob: READ_ONLY_FILE,
  Grep: READ_ONLY_FILE,
  Bash: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  ProcessWait: { readOnlyHint: true, openWorldHint: true },
  ProcessStop: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  ManagedProcess: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  TaskCreate: CHANGES_STATE,
  TaskUpdate: CHANGES_STATE,
  TaskList: { readOnlyHint: true },
  MemoryManager: CHANGES_STATE,
  SkillsManager: CHANGES_STATE,
  CronTaskManager: CHANGES_STATE,
  McpManager: CHANGES_STATE,
  ToolSearch: { readOnlyHint: true },
  mcp_edge_echo: { readOnlyHint: false, openWorldHint: true },
  Agent: CHANGES_STATE,
  SendMessage: { readOnlyHint: true },
  AskUserQuestion: CHANGES_STATE,
  ExitPlanMode: CHANGES_STATE,
  HttpGetTest: { readOnlyHint: true },
  LSP: READ_ONLY_FILE,
};

/** Every built-in tool, an MCP server's tools (deferred behind ToolSearch), subagents, interaction, skills, cron and system tools. */
function everything(name: string, extra: Partial<BuiltinToolRegistryOptions> = {}): BuiltinToolRegistryOptions {
  const workdir = path.join(work.dir, name);
  mkdirSync(workdir, { recursive: true });
  return {
    workdir,
    dataDir: path.join(work.dir, `${name}-data`),
    mcp: { getSettings: () => ({ servers: [edgeServerSettings()], selected: [] }) as never, toolSearch: { tokenBudget: 50 } },
    subagents: { model: new ScriptedModelClient({ respond: () => "done" }), conversationId: `chat-${name}` },
    interaction: { onAskUserQuestion: async () => ({ declined: true }), onExitPlanMode: async () => ({ approved: false }) },
    skills: {},
    cron: {},
    systemTools: ["HttpGetTest"],
    lsp: true,
    ...extra,
  };
}

describe("MCP hints of the built-in tools", () => {
  it("reports the same hints for every built-in tool", async () => {
    const registry = await buildBuiltinToolRegistry(everything("chat"));
    try {
      const hints = Object.fromEntries(Object.entries(registry.metadataByName).map(([name, metadata]) => [name, toolAnnotations(metadata)]));
      const expected: Record<string, unknown> = { ...EXPECTED_HINTS };
      // The edge server's other tools carry the same hints as its echo.
      for (const name of Object.keys(hints)) if (name.startsWith("mcp_edge_")) expected[name] = EXPECTED_HINTS.mcp_edge_echo;
      expect(hints).toEqual(expected);
      // tools/list says the same for what it lists.
      for (const tool of listMcpTools(registry, new Set())) expect(tool.annotations, tool.name).toEqual(expected[tool.name]);
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("reports MemoryManager read-only in cron (memory mode ro)", async () => {
    const registry = await buildBuiltinToolRegistry({ ...everything("cron", { subagents: undefined, interaction: undefined }), runtimeScope: "cron" });
    try {
      expect(toolAnnotations(registry.metadataByName.MemoryManager)).toEqual({ readOnlyHint: true });
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("plan mode lists the read-only tools (LSP among them), AskUserQuestion, ExitPlanMode, Agent and SendMessage", async () => {
    const registry = await buildBuiltinToolRegistry(
      everything("plan", {
        interaction: { planMode: true, onAskUserQuestion: async () => ({ declined: true }), onExitPlanMode: async () => ({ approved: false }) },
        mcp: { getSettings: () => ({ servers: [edgeServerSettings()], selected: [] }) as never, toolSearch: false },
      }),
    );
    try {
      expect(registry.tools.map((tool) => tool.name)).toEqual([
        "Read",
        "Image",
        "List",
        "Glob",
        "Grep",
        "ProcessWait",
        "TaskList",
        "LSP",
        "AskUserQuestion",
        "ExitPlanMode",
        "Agent",
        "SendMessage",
        "HttpGetTest",
      ]);
      registry.setPlanMode(false);
      expect(registry.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["Write", "mcp_edge_echo", "SkillsManager", "CronTaskManager"]));
    } finally {
      await registry.close();
    }
  }, 120_000);
});
