import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ToolResult } from "@agent-tools/core";
import type { TaskListDetails } from "@agent-tools/tools-tasks";
import { afterAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const fixture = path.join(here, "__fixtures__", "task-tools-process.mjs");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-tasks-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

interface Call {
  name: string;
  arguments: unknown;
}

/** Runs the fixture as a separate Node process on the same dataDir. */
async function inAnotherProcess(
  workdir: string,
  dataDir: string,
  calls: Call[],
  extra: Record<string, unknown> = {},
): Promise<{ pid: number; results: ToolResult<TaskListDetails>[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=@agent-tools/source", fixture, workdir, dataDir, JSON.stringify(calls), JSON.stringify(extra)],
    {
      cwd: repositoryRoot,
      timeout: 90_000,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

function directories(name: string): { workdir: string; dataDir: string } {
  const workdir = path.join(temporary, name, "project");
  fs.mkdirSync(workdir, { recursive: true });
  return { workdir, dataDir: path.join(temporary, name, "data") };
}

const create = (subject: string): Call => ({ name: "TaskCreate", arguments: { subject, description: `${subject} in full`, activeForm: `${subject} now` } });

describe("buildBuiltinToolRegistry: task tools", () => {
  it("keeps a conversation's task state in <dataDir>/agent-tools.sqlite across a restart of the process", async () => {
    const { workdir, dataDir } = directories("restart");
    const conversationId = "chat-restart";
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "chat", conversationId });
    expect(fs.existsSync(path.join(dataDir, "agent-tools.sqlite"))).toBe(false);
    for (const call of [create("Plan"), create("Build"), create("Ship")]) {
      expect((await registry.executeToolCall({ id: call.name, ...call })).isError).toBe(false);
    }
    const updated = await registry.executeToolCall({ id: "u", name: "TaskUpdate", arguments: '{"taskId":"2","status":"in_progress"}' });
    expect(updated.isError).toBe(false);
    await registry.close();
    expect(fs.existsSync(path.join(dataDir, "agent-tools.sqlite"))).toBe(true);

    const child = await inAnotherProcess(
      workdir,
      dataDir,
      [{ name: "TaskList", arguments: {} }, { name: "TaskUpdate", arguments: { taskId: "2", status: "completed" } }, create("Document")],
      { conversationId },
    );
    expect(child.pid).not.toBe(process.pid);
    const [listed, completed, created] = child.results;
    expect(listed!.isError).toBe(false);
    expect(listed!.details).toMatchObject({ kind: "task_list", action: "listed", runId: "default", revision: 4 });
    expect(listed!.details.tasks.map((task) => [task.id, task.subject, task.status])).toEqual([
      ["1", "Plan", "pending"],
      ["2", "Build", "in_progress"],
      ["3", "Ship", "pending"],
    ]);
    expect(completed!.isError).toBe(false);
    expect(created!.details).toMatchObject({ action: "created", taskId: "4", revision: 6 });

    // And back: this process, with a fresh registry, sees the child's changes.
    const again = await buildBuiltinToolRegistry({ workdir, dataDir, conversationId });
    const final = (await again.executeToolCall({ id: "l", name: "TaskList", arguments: {} })) as ToolResult<TaskListDetails>;
    await again.close();
    expect(final.details.revision).toBe(6);
    expect(final.details.tasks.map((task) => [task.id, task.status])).toEqual([
      ["1", "pending"],
      ["2", "completed"],
      ["3", "pending"],
      ["4", "pending"],
    ]);
  });

  it("offers no task tools in cron scope and opens no database", async () => {
    const { workdir, dataDir } = directories("cron");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, runtimeScope: "cron" });
    expect(registry.tools.map((tool) => tool.name).filter((name) => name.startsWith("Task"))).toEqual([]);
    expect(registry.hasTool("TaskList")).toBe(false);
    await registry.close();
    expect(fs.existsSync(path.join(dataDir, "agent-tools.sqlite"))).toBe(false);
  });

  it("uses a host-given store instead of the SQLite file", async () => {
    const { InMemoryTaskStateStore } = await import("@agent-tools/tools-tasks");
    const { workdir, dataDir } = directories("host-store");
    const store = new InMemoryTaskStateStore();
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tasks: { store, run: { conversationId: "chat-9", runId: "turn-1" } } });
    expect((await registry.executeToolCall({ id: "c", ...create("Plan") })).isError).toBe(false);
    await registry.close();
    const loaded = await store.load("chat-9");
    expect((loaded?.state as { tasks: unknown[] } | undefined)?.tasks).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, "agent-tools.sqlite"))).toBe(false);
  });
});
