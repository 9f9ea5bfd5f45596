import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronSchedulerEvent } from "@agent-tools/cron";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

let sshd: TestSshd;
let workspace: Workspace;
const temporaries: string[] = [];
beforeAll(async () => {
  sshd = await startTestSshd();
  workspace = await createSshWorkspace(sshd.connectOptions);
}, 60_000);
afterAll(async () => {
  await workspace?.close();
  await sshd?.stop();
  for (const made of temporaries) rmSync(made, { recursive: true, force: true });
});

let projects = 0;
/** A fresh project folder in the SSH workspace and a fresh dataDir on this host; a bash task created there by CronTaskManager. */
async function taskOnWorkspace(script: string): Promise<{ project: string; dataDir: string; taskId: string }> {
  const project = `${sshd.root}/cron-${process.pid}-${++projects}`;
  await workspace.fs.mkdir(project, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), "sdk-ws-cron-"));
  temporaries.push(dataDir);
  const registry = await buildBuiltinToolRegistry({ workspace, workdir: project, dataDir, memory: false, cron: {} });
  try {
    const created = await registry.executeToolCall({
      id: "1",
      name: "CronTaskManager",
      arguments: { action: "create", name: "remote", cron: "* * * * * *", type: "bash", script, remaining_executions: 1 },
    });
    expect(created.isError, toolResultText(created, "")).toBe(false);
    const taskId = /task_id=(\S+)/.exec(toolResultText(created, ""))?.[1] as string;
    expect(taskId).toMatch(/^cron_/);
    // A workdir outside the workspace's project is refused through the workspace (it resolves there, not on this disk).
    const outside = await registry.executeToolCall({
      id: "2",
      name: "CronTaskManager",
      arguments: { action: "create", name: "out", cron: "* * * * * *", type: "bash", script: "true", workdir: `${project}/..` },
    });
    expect(outside.isError).toBe(true);
    expect(toolResultText(outside, "")).toMatch(/is outside the directories this registry may write/);
    return { project, dataDir, taskId };
  } finally {
    await registry.close();
  }
}

/** The log of the task's runs as CronTaskManager shows it. */
async function runLogs(dataDir: string, project: string, taskId: string): Promise<string> {
  const registry = await buildBuiltinToolRegistry({ workspace, workdir: project, dataDir, memory: false, runtimeScope: "cron", cron: {} });
  try {
    return toolResultText(await registry.executeToolCall({ id: "l", name: "CronTaskManager", arguments: { action: "list_logs", task_id: taskId } }), "");
  } finally {
    await registry.close();
  }
}

/** Starts a scheduler, waits (generously) for the first finished run, stops it and returns that event. */
async function firstRun(options: Parameters<typeof startBuiltinCronScheduler>[0]): Promise<Extract<CronSchedulerEvent, { type: "run-finished" }>> {
  let resolve: (event: Extract<CronSchedulerEvent, { type: "run-finished" }>) => void = () => undefined;
  const finished = new Promise<Extract<CronSchedulerEvent, { type: "run-finished" }>>((done) => {
    resolve = done;
  });
  const scheduler = await startBuiltinCronScheduler({
    ...options,
    tickMs: 100,
    onEvent: (event) => {
      if (event.type === "run-finished") resolve(event);
    },
  });
  try {
    return await Promise.race([
      finished,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no run finished within 30 s")), 30_000).unref()),
    ]);
  } finally {
    await scheduler.stop();
  }
}

describe("cron bash tasks of a registry on an SSH workspace", () => {
  it("run through the workspace's processes in the task's workdir there (as the SSH user), the scheduler's state on this host", async () => {
    const { project, dataDir, taskId } = await taskOnWorkspace('printf "%s %s\\n" "$(pwd)" "$(id -u)" > ran.txt');
    const event = await firstRun({ dataDir, workspaces: [workspace] });
    expect(event).toMatchObject({ taskId, success: true });
    expect((await workspace.fs.readFile(`${project}/ran.txt`)).toString("utf8")).toBe(`${project} ${sshd.uid}\n`);
  }, 60_000);

  it("are refused, never run on this host, by a scheduler not given the workspace", async () => {
    const { project, dataDir, taskId } = await taskOnWorkspace("touch ran.txt");
    const event = await firstRun({ dataDir });
    expect(event).toMatchObject({ taskId, success: false });
    expect(await runLogs(dataDir, project, taskId)).toContain(`it belongs to the workspace ${workspace.label}, and this scheduler was not given it`);
    await expect(workspace.fs.stat(`${project}/ran.txt`)).rejects.toMatchObject({ code: "not_found" });
  }, 60_000);

  it("are refused by a scheduler that confines bash tasks in its sandbox (bubblewrap is local-only)", async () => {
    const { project, dataDir, taskId } = await taskOnWorkspace("touch ran.txt");
    const event = await firstRun({ dataDir, workspaces: [workspace], registryOptions: { sandbox: { enabled: true } } });
    expect(event).toMatchObject({ taskId, success: false });
    expect(await runLogs(dataDir, project, taskId)).toContain("which works on this host only");
    await expect(workspace.fs.stat(`${project}/ran.txt`)).rejects.toMatchObject({ code: "not_found" });
  }, 60_000);

  it("refuses a malformed workspaces option", async () => {
    await expect(startBuiltinCronScheduler({ dataDir: "/nonexistent", workspaces: [workspace, workspace] })).rejects.toMatchObject({
      code: "invalid_options",
      message: expect.stringContaining(`holds two workspaces labelled ${workspace.label}`),
    });
  });
});
