import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelMessage, ModelRequest } from "@agent-tools/core";
import { ScriptedModelClient, type ScriptedModelResponse } from "@agent-tools/core/testing";
import { openSqliteStorage } from "@agent-tools/storage";
import { KyselySubagentStore, type SubagentBatchDetails } from "@agent-tools/subagents";
import { afterAll, describe, expect, it } from "vitest";
import { createCommittedRepository } from "./__fixtures__/committed-repository.js";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-subagents-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A git repository with committed files under the test's temp folder; returns its path. */
function repository(name: string, files: Record<string, string>): string {
  return createCommittedRepository(temporary, name, files);
}

const agentOf = (request: ModelRequest) => /\(agent id: ([^)]+)\)/.exec(String(request.messages[0]?.content))?.[1] ?? "?";
const turnOf = (request: ModelRequest) => request.messages.filter((message) => message.role === "assistant").length;

describe("buildBuiltinToolRegistry: subagents", () => {
  it("offers Agent and SendMessage in chat, gives a worktree child a registry of its own (no Agent, tasks or writable memory) and applies its edit", async () => {
    const workdir = repository("apply", { "README.md": "# demo\n", "src/a.ts": "export const a = 1;\n" });
    const toolsSeen: Record<string, string[]> = {};
    const model = new ScriptedModelClient({
      respond: (request): ScriptedModelResponse | string => {
        const agent = agentOf(request);
        toolsSeen[agent] ??= (request.tools ?? []).map((tool) => tool.name).sort();
        if (turnOf(request) > 0) return `done ${agent}`;
        if (agent === "writer") return { toolCalls: [{ name: "Bash", arguments: { command: "printf 'export const a = 2;\\n' > src/a.ts" } }] };
        return { toolCalls: [{ name: "Read", arguments: { path: "README.md" } }] };
      },
    });
    const dataDir = path.join(temporary, "apply-data");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, subagents: { model, conversationId: "chat-1" } });
    try {
      expect(registry.hasTool("Agent")).toBe(true);
      expect(registry.hasTool("SendMessage")).toBe(true);
      const result = await registry.executeToolCall({
        id: "call_1",
        name: "Agent",
        arguments: {
          agents: [
            { id: "reader", prompt: "Read the README." },
            { id: "writer", prompt: "Set a to 2.", mode: "worktree", apply_policy: "auto" },
          ],
        },
      });
      const details = result.details as SubagentBatchDetails;
      expect(result.isError).toBe(false);
      expect(details.agents.map((agent) => [agent.id, agent.status])).toEqual([
        ["reader", "completed"],
        ["writer", "completed"],
      ]);
      expect(details.agents[1]).toMatchObject({ applyStatus: "applied", worktreeCleanupStatus: "removed", changedPaths: ["src/a.ts"] });
      expect(fs.readFileSync(path.join(workdir, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
      for (const tools of Object.values(toolsSeen)) {
        expect(tools).toContain("SendMessage");
        for (const never of ["Agent", "TaskCreate", "TaskUpdate", "CronTaskManager", "McpManager"]) expect(tools).not.toContain(never);
      }
      expect(toolsSeen.reader).not.toContain("Bash");
      expect(toolsSeen.reader).not.toContain("Write");
      expect(toolsSeen.writer).toEqual(expect.arrayContaining(["Bash", "Edit", "Read", "Write"]));
      expect(toolsSeen.writer).toContain("MemoryManager"); // read-only memory in a worktree child
    } finally {
      await registry.close();
    }
    const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", subagents: { model } });
    expect(cron.hasTool("Agent")).toBe(false);
    await cron.close();
  }, 120_000);

  it("persists subagent runs under the registry's conversationId when subagents name none", async () => {
    const workdir = repository("conversation", { "README.md": "# demo\n" });
    const model = new ScriptedModelClient({ respond: () => "done" });
    const dataDir = path.join(temporary, "conversation-data");
    const bare = await buildBuiltinToolRegistry({ workdir, dataDir, subagents: { model } });
    expect(bare.hasTool("SendMessage")).toBe(false); // nothing persists without a conversation
    await bare.close();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId: "chat-7", subagents: { model } });
    try {
      expect(registry.hasTool("SendMessage")).toBe(true);
      const result = await registry.executeToolCall({ id: "call_1", name: "Agent", arguments: { agents: [{ id: "reader", prompt: "Say done." }] } });
      expect(result.isError).toBe(false);
    } finally {
      await registry.close();
    }
    const storage = await openSqliteStorage({ dataDir });
    try {
      const store = await KyselySubagentStore.open(storage);
      const roster = await store.listIdentities("chat-7");
      expect(roster.map((identity) => identity.id)).toEqual(["reader"]);
    } finally {
      await storage.close();
    }
  }, 120_000);

  it("resumes an agent from its last completed round after the host process is killed with SIGKILL", async () => {
    const workdir = repository("crash", { "notes-0.md": "first note\n", "notes-1.md": "second note\n" });
    const dataDir = path.join(temporary, "crash-data");
    const host = (phase: string) =>
      spawn(
        process.execPath,
        ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "__fixtures__", "subagent-host-process.mjs"), workdir, dataDir, phase],
        {
          cwd: repositoryRoot,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
    const first = host("crash");
    let output = "";
    first.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => first.on("exit", (_code, signal) => resolve(signal)));
    for (let waited = 0; !output.includes('"hanging":true') && waited < 60_000; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(output).toContain('"hanging":true');
    first.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");

    const storage = await openSqliteStorage({ dataDir });
    const store = await KyselySubagentStore.open(storage);
    const [crashed] = await store.listRuns("crash-conversation", { agentId: "survivor" });
    expect(crashed).toMatchObject({ status: "running", rounds: 2, toolCalls: 2 });

    const second = host("resume");
    let resumed = "";
    second.stdout.on("data", (chunk: Buffer) => {
      resumed += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => second.on("exit", (exitCode) => resolve(exitCode)));
    expect(code).toBe(0);
    const lines = resumed
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { request?: ModelMessage[]; result?: SubagentBatchDetails });
    const request = lines.find((line) => line.request)!.request!;
    const toolResults = request.filter((message) => message.role === "tool").map((message) => message.content);
    expect(toolResults.join("\n")).toContain("first note");
    expect(toolResults.join("\n")).toContain("second note");
    expect(request.map((message) => message.content).join("\n")).toContain("task of phase resume");
    expect(lines.find((line) => line.result)!.result!.agents[0]).toMatchObject({ id: "survivor", status: "completed", summary: "resumed and done" });
    const runs = await store.listRuns("crash-conversation", { agentId: "survivor" });
    expect(runs.map((run) => run.status)).toEqual(["completed", "running"]);
    await storage.close();
  }, 180_000);
});
