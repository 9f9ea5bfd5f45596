import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-cron-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  fs.mkdirSync(path.join(base, "project"));
  return { workdir: path.join(base, "project"), dataDir: path.join(base, "data") };
}

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("buildBuiltinToolRegistry: CronTaskManager and startBuiltinCronScheduler", () => {
  it("is off by default", async () => {
    const { workdir, dataDir } = directories();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir });
    try {
      expect(registry.metadataByName.CronTaskManager).toBeUndefined();
    } finally {
      await registry.close();
    }
  });

  it("keeps tasks in the shared SQLite file; the scheduler fires a task the tool created, once per occurrence, and a second scheduler on the dataDir refuses", async () => {
    const { workdir, dataDir } = directories();
    const chat = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
    const created = await chat.executeToolCall({
      id: "1",
      name: "CronTaskManager",
      arguments: { action: "create", name: "tick", cron: "* * * * * *", type: "bash", script: "date +%s%N >> ticks.log", remaining_executions: 2 },
    });
    expect(created.isError).toBe(false);
    const taskId = /task_id=(\S+)/.exec(toolResultText(created, ""))?.[1];
    expect(taskId).toMatch(/^cron_/);
    await chat.close();

    const scheduler = await startBuiltinCronScheduler({ dataDir, tickMs: 100 });
    try {
      await expect(startBuiltinCronScheduler({ dataDir })).rejects.toThrow(/scheduler/i);
      const lines = await waitFor(() => {
        const file = path.join(workdir, "ticks.log");
        const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n") : [];
        return text.length >= 2 ? text : undefined;
      }, "two runs of the task");
      await scheduler.idle();
      expect(lines).toHaveLength(2);
    } finally {
      await scheduler.stop();
    }

    // The cron-scope registry sees the same tasks and the run log.
    const cron = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron", cron: {} });
    try {
      const read = await cron.executeToolCall({ id: "2", name: "CronTaskManager", arguments: { action: "read", task_id: taskId } });
      expect(toolResultText(read, "")).toContain("remaining_executions=0");
      const logs = await cron.executeToolCall({ id: "3", name: "CronTaskManager", arguments: { action: "list_logs", task_id: taskId } });
      expect(toolResultText(logs, "").match(/\[success\]/g)).toHaveLength(2);
    } finally {
      await cron.close();
    }
    expect(fs.readFileSync(path.join(workdir, "ticks.log"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("runs a prompt task with the host's model in a cron-scope registry on the task's workdir", async () => {
    const { workdir, dataDir } = directories();
    fs.writeFileSync(path.join(workdir, "notes.txt"), "the build is green\n");
    const model = new ScriptedModelClient({
      id: "model-a",
      respond: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? "Summary: the build is green."
          : { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] },
    });
    const chat = await buildBuiltinToolRegistry({ workdir, dataDir, cron: { currentModelId: () => model.id } });
    const created = await chat.executeToolCall({
      id: "1",
      name: "CronTaskManager",
      arguments: { action: "create", name: "digest", cron: "* * * * * *", type: "prompt", prompt: "Summarise notes.txt", remaining_executions: 1 },
    });
    expect(toolResultText(created, "")).toContain("type=prompt");
    const taskId = /task_id=(\S+)/.exec(toolResultText(created, ""))?.[1] as string;

    const scheduler = await startBuiltinCronScheduler({ dataDir, model, tickMs: 100 });
    try {
      const logs = await waitFor(async () => {
        const result = await chat.executeToolCall({ id: "2", name: "CronTaskManager", arguments: { action: "list_logs", task_id: taskId } });
        const text = toolResultText(result, "");
        return text.includes("[success]") ? text : undefined;
      }, "the prompt run");
      expect(logs).toContain("Summary: the build is green.");
      // The run's registry was the cron scope: no task tools were offered to the model.
      const offered = model.requests[0]?.tools?.map((tool) => tool.name) ?? [];
      expect(offered).toContain("Read");
      expect(offered).not.toContain("TaskCreate");
    } finally {
      await scheduler.stop();
      await chat.close();
    }
  });
});
