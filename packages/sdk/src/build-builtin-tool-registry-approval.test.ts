import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SdkError, defineTool } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { BUILTIN_TOOL_NAMES } from "./approval-wiring.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-approval-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const fresh = (name: string) => fs.mkdtempSync(path.join(temporary, `${name}-`));

const Greet = defineTool({ name: "Greet", description: "Greets.", inputSchema: z.object({}), execute: () => ({ content: "hello" }) });

describe("buildBuiltinToolRegistry: approval rules", () => {
  it("accepts any built-in tool's exact name in every scope and configuration (one rule set serves chat and cron)", async () => {
    const policies = { TaskCreate: "allow", Agent: "deny", SkillsManager: "deny", ExitPlanMode: "allow", ToolSearch: "deny" } as const;
    for (const runtimeScope of ["chat", "cron"] as const) {
      const registry = await buildBuiltinToolRegistry({ workdir: fresh("scope"), dataDir: fresh("scope-data"), runtimeScope, approval: { policies } });
      expect(registry.hasTool("Agent")).toBe(false);
      await registry.close();
    }
    await expect(
      buildBuiltinToolRegistry({ workdir: fresh("typo"), dataDir: fresh("typo-data"), approval: { policies: { TaskCreat: "allow" } } }),
    ).rejects.toThrow(/did you mean `TaskCreate`\?/);
  });

  it("names every tool a full registry registers in BUILTIN_TOOL_NAMES", async () => {
    const registry = await buildBuiltinToolRegistry({
      workdir: fresh("full"),
      dataDir: fresh("full-data"),
      editSurface: "both",
      systemTools: ["HttpGetTest"],
      mcp: { getSettings: () => ({ servers: [], selected: [] }) },
      subagents: { model: new ScriptedModelClient({ respond: () => "done" }), conversationId: "names" },
      interaction: { planMode: true, onAskUserQuestion: async () => ({ declined: true }), onExitPlanMode: async () => ({ approved: false }) },
      cron: {},
      skills: {},
      webFetch: true,
    });
    try {
      const names = Object.keys(registry.metadataByName);
      expect(names.length).toBeGreaterThan(20);
      expect(names.filter((name) => !BUILTIN_TOOL_NAMES.includes(name))).toEqual([]);
    } finally {
      await registry.close();
    }
  });

  it("lets a worktree agent's registry take the parent's rules, which name host tools the child does not have", async () => {
    const workdir = createCommittedRepository(fresh("child"), "repo", { "a.txt": "one\n" });
    const model = new ScriptedModelClient({
      respond: (request) =>
        request.messages.some((message) => message.role === "assistant")
          ? "done"
          : { toolCalls: [{ name: "Write", arguments: { path: "a.txt", content: "two\n" } }] },
    });
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: fresh("child-data"),
      tools: [Greet],
      approval: { policies: { Greet: "deny", "group:custom": "deny" } },
      subagents: { model, conversationId: "child-rules" },
    });
    try {
      const result = await registry.executeToolCall({
        id: "agent",
        name: "Agent",
        arguments: { agents: [{ id: "writer", prompt: "Write two.", mode: "worktree", apply_policy: "auto" }] },
      });
      expect((result.details as SubagentBatchDetails).agents[0]).toMatchObject({ status: "completed", applyStatus: "applied" });
      expect(fs.readFileSync(path.join(workdir, "a.txt"), "utf8")).toBe("two\n");
    } finally {
      await registry.close();
    }
  }, 120_000);

  it("throws SdkError before anything runs, closing what it opened", async () => {
    const attempt = buildBuiltinToolRegistry({
      workdir: fresh("closed"),
      dataDir: fresh("closed-data"),
      tools: [Greet],
      approval: { policies: { greet: "deny" } },
    });
    await expect(attempt).rejects.toBeInstanceOf(SdkError);
    await expect(attempt).rejects.toThrow(/did you mean `Greet`\?/);
  });
});
