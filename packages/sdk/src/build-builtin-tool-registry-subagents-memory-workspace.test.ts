/**
 * Subagents on a workspace that runs no processes (the memory workspace):
 * the registry builds, a read-only child reads the workspace's files, and a
 * worktree child fails with `worktree_unavailable` (no git to make a
 * worktree), this host's disk untouched.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { createMemoryWorkspace } from "@agent-tools/core/workspace";
import type { SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagents-memory-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";

describe("buildBuiltinToolRegistry({ workspace: memory, subagents })", () => {
  it("runs a read-only child on the workspace and fails a worktree child with worktree_unavailable", async () => {
    const workspace = createMemoryWorkspace({ root: "/ws", files: { "README.md": "# remote readme\n" } });
    const reads: string[] = [];
    const model = new ScriptedModelClient({
      respond: (request): ScriptedModelResponse | string => {
        const agent = agentOf(request);
        const tool = request.messages.find((message) => message.role === "tool");
        if (tool !== undefined) {
          reads.push(JSON.stringify(tool.content));
          return `done ${agent}`;
        }
        if (request.messages.some((message) => message.role === "assistant")) return `done ${agent}`;
        return agent === "reader" ? { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] } : "nothing to do";
      },
    });
    const registry = await buildBuiltinToolRegistry({ workspace, dataDir: path.join(temporary, "data"), memory: false, subagents: { model } });
    try {
      const result = await registry.executeToolCall({
        id: "call_1",
        name: "Agent",
        arguments: {
          agents: [
            { id: "reader", prompt: "Read the README." },
            { id: "writer", prompt: "Change it.", mode: "worktree", apply_policy: "auto" },
          ],
        },
      });
      const agents = (result.details as SubagentBatchDetails).agents;
      expect(agents[0]).toMatchObject({ id: "reader", status: "completed" });
      expect(reads.join("\n")).toContain("remote readme");
      expect(agents[1]).toMatchObject({ id: "writer", status: "failed" });
      expect(agents[1]?.error).toMatch(/worktree_unavailable.*runs no processes/);
      expect(fs.existsSync("/ws")).toBe(false);
    } finally {
      await registry.close();
      await workspace.close();
    }
  }, 60_000);
});
