import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-plan-mode-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

describe("buildBuiltinToolRegistry: plan mode", () => {
  it("lists and runs only read-only tools plus AskUserQuestion, ExitPlanMode, Agent and SendMessage of the full registry; setPlanMode toggles", async () => {
    const workdir = path.join(temporary, "full");
    fs.mkdirSync(workdir);
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "full-data"),
      mcp: { getSettings: () => ({ servers: [], selected: [] }) },
      subagents: { model: new ScriptedModelClient({ respond: () => "done" }), conversationId: "chat-plan" },
      interaction: { planMode: true, onAskUserQuestion: async () => ({ declined: true }), onExitPlanMode: async () => ({ approved: false }) },
    });
    try {
      const planTools = ["Read", "Image", "List", "Glob", "Grep", "ProcessWait", "TaskList", "AskUserQuestion", "ExitPlanMode", "Agent", "SendMessage"];
      expect(registry.planMode).toBe(true);
      expect(registry.tools.map((tool) => tool.name)).toEqual(planTools);
      // Plan mode reaches the executors too: a write the model remembers from before is refused.
      const write = await registry.executeToolCall({ id: "w", name: "Write", arguments: { path: "notes.md", content: "plan\n" } });
      expect(write).toMatchObject({ isError: true, details: { code: "permission_denied", planMode: true } });
      expect(fs.existsSync(path.join(workdir, "notes.md"))).toBe(false);

      const seen: string[][] = [];
      registry.onToolsChanged(() => seen.push(registry.tools.map((tool) => tool.name)));
      registry.setPlanMode(false);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toEqual(expect.arrayContaining(["Write", "Edit", "Bash", "TaskCreate", "MemoryManager", "McpManager", "AskUserQuestion", "Agent"]));
      expect(seen[0]).not.toContain("ExitPlanMode");
      expect((await registry.executeToolCall({ id: "w2", name: "Write", arguments: { path: "notes.md", content: "plan\n" } })).isError).toBe(false);
      registry.setPlanMode(true);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toEqual(planTools);
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("keeps AskUserQuestion listed and callable in plan mode: the call reaches the host and its answer comes back", async () => {
    const workdir = path.join(temporary, "ask");
    fs.mkdirSync(workdir);
    const asked: string[] = [];
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "ask-data"),
      memory: false,
      interaction: {
        planMode: true,
        onAskUserQuestion: async (request) => {
          asked.push(...request.questions.map((item) => item.question));
          return { answers: { "Which database?": "SQLite" } };
        },
      },
    });
    try {
      expect(registry.planMode).toBe(true);
      expect(registry.tools.map((tool) => tool.name)).toContain("AskUserQuestion");
      expect(registry.hasTool("AskUserQuestion")).toBe(true);
      const result = await registry.executeToolCall({
        id: "q",
        name: "AskUserQuestion",
        arguments: { questions: [{ question: "Which database?", options: [{ label: "SQLite" }, { label: "Postgres" }] }] },
      });
      expect(result.isError).toBe(false);
      expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("Answer: SQLite") });
      expect(asked).toEqual(["Which database?"]);
    } finally {
      await registry.close();
    }
  });

  it("is off by default", async () => {
    const workdir = path.join(temporary, "default");
    fs.mkdirSync(workdir);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(temporary, "default-data"), memory: false });
    try {
      expect(registry.planMode).toBe(false);
      expect(registry.tools.map((tool) => tool.name)).toContain("Write");
    } finally {
      await registry.close();
    }
  });
});
