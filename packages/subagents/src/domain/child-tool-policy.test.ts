import type { ToolBundle, ToolMetadata } from "@agent-tools/core";
import { createMemoryToolBundle } from "@agent-tools/memory";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { createShellToolBundle } from "@agent-tools/tools-shell";
import { afterAll, describe, expect, it } from "vitest";
import {
  READONLY_CHILD_EXCLUDED_GROUPS,
  SUBAGENT_EXCLUDED_TOOLS,
  isMcpBusinessTool,
  isToolAllowedForChild,
  toolNotAvailableText,
} from "./child-tool-policy.js";
import type { SubagentMode } from "./subagent-types.js";

// The real bundles' tools, with their real metadata.
const bundles: ToolBundle[] = [createFsToolBundle(), createShellToolBundle(), createMemoryToolBundle({ mode: "rw" }), createMemoryToolBundle({ mode: "ro" })];
afterAll(async () => {
  await Promise.all(bundles.map((bundle) => bundle.close?.()));
});
const [fs, shell, memoryRw, memoryRo] = bundles.map((bundle) => bundle.listTools().map((tool) => ({ name: tool.name, metadata: tool.metadata })));

const mcpBusiness = {
  name: "github__create_issue",
  metadata: { groupId: "mcp", kind: "mcp", isReadOnly: false, displayCategory: "mcp", serverId: "github" } as ToolMetadata,
};
const system = (name: string, isReadOnly: boolean, kind = "manage"): { name: string; metadata: ToolMetadata } => ({
  name,
  metadata: { groupId: "system", kind, isReadOnly, displayCategory: "system" },
});
const agentTool = { name: "Agent", metadata: { groupId: "subagent", kind: "agent", isReadOnly: false, displayCategory: "other" } as ToolMetadata };
const sendMessage = { name: "SendMessage", metadata: { groupId: "subagent", kind: "message", isReadOnly: true, displayCategory: "other" } as ToolMetadata };

const allowedNames = (mode: SubagentMode, tools: readonly { name: string; metadata: ToolMetadata }[], strictReadOnly = false) =>
  tools
    .filter((tool) => isToolAllowedForChild(mode, tool, { strictReadOnly, source: mode === "readonly" ? "parent" : "worktree" }))
    .map((tool) => tool.name)
    .sort();

describe("child tool policy, readonly mode (the parent's tools)", () => {
  it("keeps exactly the parent's read-only file-system tools", () => {
    expect(fs!.map((tool) => tool.name).sort()).toEqual(["ApplyPatch", "Delete", "Edit", "Glob", "Grep", "Image", "List", "NotebookEdit", "Read", "Write"]);
    expect(allowedNames("readonly", fs!)).toEqual(["Glob", "Grep", "Image", "List", "Read"]);
  });

  it("keeps no shell tool at all: ProcessWait would read the parent's Bash sessions", () => {
    expect(shell!.find((tool) => tool.name === "ProcessWait")!.metadata.isReadOnly).toBe(true);
    expect(allowedNames("readonly", shell!)).toEqual([]);
  });

  it("keeps no task tool: TaskList would read the parent's task list", () => {
    const taskList = { name: "TaskList", metadata: { groupId: "task", kind: "task_list", isReadOnly: true, displayCategory: "system" } as ToolMetadata };
    expect(allowedNames("readonly", [taskList])).toEqual([]);
    expect(READONLY_CHILD_EXCLUDED_GROUPS).toEqual(["shell", "task", "system", "subagent"]);
  });

  it("gives no memory when the parent's MemoryManager is read-write", () => {
    expect(memoryRw!.map((tool) => tool.name)).toEqual(["MemoryManager"]);
    expect(allowedNames("readonly", memoryRw!)).toEqual([]);
    expect(allowedNames("readonly", memoryRo!)).toEqual(["MemoryManager"]);
  });

  it("keeps MCP business tools unless strictReadOnly", () => {
    expect(isMcpBusinessTool(mcpBusiness.metadata)).toBe(true);
    expect(allowedNames("readonly", [mcpBusiness])).toEqual(["github__create_issue"]);
    expect(allowedNames("readonly", [mcpBusiness], true)).toEqual([]);
    expect(allowedNames("readonly", fs!, true)).toEqual(["Glob", "Grep", "Image", "List", "Read"]);
  });

  it("keeps read-only host tools but no system tool (ToolSearch would change the parent's tools), Agent, SendMessage or the managers", () => {
    const customReadOnly = { name: "Lookup", metadata: { groupId: "custom", kind: "lookup", isReadOnly: true, displayCategory: "other" } as ToolMetadata };
    const tools = [
      customReadOnly,
      system("ToolSearch", true, "search"),
      system("McpManager", false),
      system("SkillsManager", true),
      system("CronTaskManager", true),
      system("ReadTerminal", true, "read"),
      agentTool,
      sendMessage,
    ];
    expect(allowedNames("readonly", tools)).toEqual(["Lookup"]);
  });

  it("refuses tools of a worktree registry", () => {
    expect(isToolAllowedForChild("readonly", fs![0]!, { source: "worktree" })).toBe(false);
  });
});

describe("child tool policy, worktree mode (the worktree registry's tools)", () => {
  it("keeps every file-system tool and the shell tools of its own sessions, not ManagedProcess (its processes live in the shared data directory)", () => {
    expect(allowedNames("worktree", fs!)).toEqual(fs!.map((tool) => tool.name).sort());
    expect([...new Set(allowedNames("worktree", shell!))]).toEqual(["Bash", "ProcessStop", "ProcessWait"]); // Bash twice: its chat and cron forms
  });

  it("keeps read-only memory only", () => {
    expect(allowedNames("worktree", memoryRo!)).toEqual(["MemoryManager"]);
    expect(allowedNames("worktree", memoryRw!)).toEqual([]);
  });

  it("keeps MCP business tools (not under strictReadOnly) and no system or subagent tools", () => {
    expect(allowedNames("worktree", [mcpBusiness])).toEqual(["github__create_issue"]);
    expect(allowedNames("worktree", [mcpBusiness], true)).toEqual([]);
    const tools = [
      system("ToolSearch", true, "search"),
      system("McpManager", false),
      system("SkillsManager", false),
      system("CronTaskManager", false),
      system("ReadTerminal", true),
      agentTool,
      sendMessage,
    ];
    expect(allowedNames("worktree", tools)).toEqual([]);
    const customReadOnly = { name: "Lookup", metadata: { groupId: "custom", kind: "lookup", isReadOnly: true, displayCategory: "other" } as ToolMetadata };
    expect(allowedNames("worktree", [customReadOnly])).toEqual([]);
  });

  it("refuses an excluded name even with fs or shell metadata, case-insensitively", () => {
    const disguised = { name: "readterminal", metadata: shell![0]!.metadata };
    expect(isToolAllowedForChild("worktree", disguised, { source: "worktree" })).toBe(false);
    expect(isToolAllowedForChild("worktree", { name: "AGENT", metadata: fs![0]!.metadata }, { source: "worktree" })).toBe(false);
  });

  it("refuses tools of the parent's registry", () => {
    expect(isToolAllowedForChild("worktree", fs![0]!, { source: "parent" })).toBe(false);
  });
});

describe("toolNotAvailableText and the excluded list", () => {
  it("names the tool and the mode", () => {
    expect(toolNotAvailableText("Write", "readonly")).toBe("Tool Write is not available to delegated subagents in mode=readonly.");
    expect(toolNotAvailableText("Agent", "worktree")).toBe("Tool Agent is not available to delegated subagents in mode=worktree.");
  });
  it("lists the tools no child gets", () => {
    expect(SUBAGENT_EXCLUDED_TOOLS).toEqual(["Agent", "SendMessage", "SkillsManager", "McpManager", "CronTaskManager", "ReadTerminal", "ManagedProcess"]);
  });
});
