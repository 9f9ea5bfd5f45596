import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ModelRequest, SdkError } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-permissions-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let counter = 0;
/** A fresh workdir and dataDir. */
function fresh(): { workdir: string; dataDir: string } {
  counter += 1;
  const workdir = path.join(temporary, `w${counter}`);
  fs.mkdirSync(workdir);
  return { workdir, dataDir: path.join(temporary, `d${counter}`) };
}

const textOf = (result: { content: ReadonlyArray<{ type: string; text?: string }> }) => result.content.map((block) => block.text ?? "").join("");

describe("buildBuiltinToolRegistry: permissions", () => {
  it.each([
    [["bash"], /Bash/],
    [["Bsh"], /Bash/],
    [["Bash("], /Bash\(/],
    [["TaskList(x)"], /TaskList/],
    [["Bash()"], /Bash\(\)/],
  ])("refuses the mistyped allow rule %j at build with the closest name (a rule never fails open)", async (allow, named) => {
    const build = buildBuiltinToolRegistry({ ...fresh(), permissions: { allow } });
    await expect(build).rejects.toThrow(SdkError);
    await expect(buildBuiltinToolRegistry({ ...fresh(), permissions: { allow } })).rejects.toThrow(named);
  });

  it("refuses an unknown mode, an unknown key and a non-array list", async () => {
    await expect(buildBuiltinToolRegistry({ ...fresh(), permissions: { defaultMode: "Default" as never } })).rejects.toThrow(SdkError);
    await expect(buildBuiltinToolRegistry({ ...fresh(), permissions: { alow: ["Bash"] } as never })).rejects.toThrow(/allow/);
    await expect(buildBuiltinToolRegistry({ ...fresh(), permissions: { deny: "Bash" as never } })).rejects.toThrow(SdkError);
  });

  it("runs an allowed command line, and denies a line with one part no rule allows (real Bash, dontAsk)", async () => {
    const { workdir, dataDir } = fresh();
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      permissions: { allow: ["Bash(echo *)"], deny: ["Bash(rm *)"], defaultMode: "dontAsk" },
    });
    try {
      const ok = await registry.executeToolCall({ id: "1", name: "Bash", arguments: { command: "echo hello" } });
      expect(ok.isError).toBe(false);
      expect(textOf(ok)).toContain("hello");
      const chained = await registry.executeToolCall({ id: "2", name: "Bash", arguments: { command: "echo hi && touch pwned" } });
      expect(chained.error?.code).toBe("permission_denied");
      const removed = await registry.executeToolCall({ id: "3", name: "bash", arguments: { command: "echo x; rm -f keep" } });
      expect(removed.error?.code).toBe("permission_denied");
      expect(removed.details).toMatchObject({ rule: "Bash(rm *)" });
      expect(fs.existsSync(path.join(workdir, "pwned"))).toBe(false);
      const explained = await registry.policy.explain({ name: "Bash", arguments: { command: "rm -rf build" } });
      expect(explained).toMatchObject({ decision: "deny", rule: "Bash(rm *)" });
    } finally {
      await registry.close();
    }
  });

  it("a worktree subagent meets its parent's rules, and SubagentStart / SubagentStop hooks run", async () => {
    const workdir = createCommittedRepository(temporary, "subagent", { "README.md": "# demo\n" });
    const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
    const results: string[] = [];
    const model = new ScriptedModelClient({
      respond: (request): ScriptedModelResponse | string => {
        const last = request.messages.at(-1);
        if (last?.role === "tool") {
          results.push(String(JSON.stringify(last.content)));
          return `done ${agentOf(request)}`;
        }
        return { toolCalls: [{ name: "Bash", arguments: { command: "touch pwned.txt" } }] };
      },
    });
    const events: string[] = [];
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir: path.join(temporary, "subagent-data"),
      subagents: { model, conversationId: "chat-p" },
      permissions: { deny: ["Bash(touch *)"] },
      hooks: {
        SubagentStart: [{ hooks: [{ type: "function", run: (input) => void events.push(`start ${String(input.agent_id)}`) }] }],
        SubagentStop: [{ hooks: [{ type: "function", run: (input) => void events.push(`stop ${String(input.agent_id)}`) }] }],
      },
    });
    try {
      const result = await registry.executeToolCall({
        id: "call_1",
        name: "Agent",
        arguments: { agents: [{ id: "writer", prompt: "Touch a file.", mode: "worktree", apply_policy: "auto" }] },
      });
      const details = result.details as SubagentBatchDetails;
      expect(details.agents[0]?.status).toBe("completed");
      expect(results.join("\n")).toMatch(/denied/);
      expect(fs.existsSync(path.join(workdir, "pwned.txt"))).toBe(false);
      expect(events).toEqual(["start writer", "stop writer"]);
    } finally {
      await registry.close();
    }
  }, 120_000);
});
