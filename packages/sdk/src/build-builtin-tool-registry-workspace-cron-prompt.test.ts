/**
 * Prompt cron tasks of a registry on a non-local workspace: CronTaskManager
 * on `buildBuiltinToolRegistry({ workspace, cron })` creates them, and
 * `startBuiltinCronScheduler({ model, workspaces })` runs them with a
 * cron-scope registry on the task's workspace (a memory workspace, and a
 * real sshd as root), never on this host's disk.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { toolResultText } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { type Workspace, createMemoryWorkspace } from "@agent-tools/core/workspace";
import type { CronSchedulerEvent } from "@agent-tools/cron";
import { createSshWorkspace } from "@agent-tools/ssh";
import { type TestSshd, startTestSshd } from "@agent-tools/ssh/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import { startBuiltinCronScheduler } from "./start-builtin-cron-scheduler.js";

const asRoot = process.getuid?.() === 0;
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sdk-ws-cron-prompt-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let cases = 0;
/** A prompt task created by CronTaskManager on a registry built on `workspace` at `workdir`; a fresh local dataDir. */
async function promptTaskOn(workspace: Workspace, workdir: string, prompt: string): Promise<{ dataDir: string; taskId: string }> {
  const dataDir = path.join(temporary, `data-${++cases}`);
  const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, cron: { currentModelId: () => "model-a" } });
  try {
    const created = await registry.executeToolCall({
      id: "1",
      name: "CronTaskManager",
      arguments: { action: "create", name: "remote-prompt", cron: "* * * * * *", type: "prompt", prompt, remaining_executions: 1 },
    });
    expect(created.isError, toolResultText(created, "")).toBe(false);
    const taskId = /task_id=(\S+)/.exec(toolResultText(created, ""))?.[1] as string;
    expect(taskId).toMatch(/^cron_/);
    return { dataDir, taskId };
  } finally {
    await registry.close();
  }
}

/** The task's run log as CronTaskManager shows it (a registry on the same workspace). */
async function runLogs(workspace: Workspace, workdir: string, dataDir: string, taskId: string): Promise<string> {
  const registry = await buildBuiltinToolRegistry({ workspace, workdir, dataDir, memory: false, runtimeScope: "cron", cron: {} });
  try {
    return toolResultText(await registry.executeToolCall({ id: "l", name: "CronTaskManager", arguments: { action: "list_logs", task_id: taskId } }), "");
  } finally {
    await registry.close();
  }
}

type Finished = Extract<CronSchedulerEvent, { type: "run-finished" }>;

/** Starts a scheduler, waits (generously) for the first finished run, stops it and returns that event. */
async function firstRun(options: Parameters<typeof startBuiltinCronScheduler>[0]): Promise<Finished> {
  let resolve: (event: Finished) => void = () => undefined;
  const finished = new Promise<Finished>((done) => {
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

/** A model that makes `calls` in its first turn, then answers `answer`. */
function modelMaking(calls: ReadonlyArray<{ name: string; arguments: Record<string, unknown> }>, answer: string): ScriptedModelClient {
  return new ScriptedModelClient({
    id: "model-a",
    respond: (request) => (request.messages.some((message) => message.role === "tool") ? answer : { toolCalls: calls.map((call) => ({ ...call })) }),
  });
}

describe("prompt cron tasks of a registry on a memory workspace", () => {
  it("run with a cron-scope registry on the workspace: the file the model Writes is in the workspace, not on this disk", async () => {
    const root = path.join(temporary, `mem-${process.pid}`); // a path on this disk that must stay absent
    const workspace = createMemoryWorkspace({ root });
    const workdir = `${root}/project`;
    await workspace.fs.mkdir(workdir, { recursive: true });
    const { dataDir, taskId } = await promptTaskOn(workspace, workdir, "Write the report");
    const model = modelMaking([{ name: "Write", arguments: { path: "report.txt", content: "written by the cron run\n" } }], "Report written.");
    const event = await firstRun({ dataDir, model, workspaces: [workspace] });
    expect(event).toMatchObject({ taskId, success: true });
    expect((await workspace.fs.readFile(`${workdir}/report.txt`)).toString("utf8")).toBe("written by the cron run\n");
    expect(fs.existsSync(root)).toBe(false);
    const logs = await runLogs(workspace, workdir, dataDir, taskId);
    expect(logs).toContain("Report written.");
    expect(logs).toContain("Tool calls: 1 (Write x1).");
    // The run's registry was the cron scope on the task's workdir in the workspace.
    const offered = model.requests[0]?.tools?.map((tool) => tool.name) ?? [];
    expect(offered).toContain("Write");
    expect(offered).not.toContain("TaskCreate");
    expect(String(model.requests[0]?.messages[0]?.content)).toContain(`Working directory: ${workdir}.`);
  });

  it("fail, the model never asked, when the scheduler was not given the workspace; the message names the label and what to pass", async () => {
    const root = path.join(temporary, `mem-absent-${process.pid}`);
    const workspace = createMemoryWorkspace({ root });
    await workspace.fs.mkdir(`${root}/p`, { recursive: true });
    const { dataDir, taskId } = await promptTaskOn(workspace, `${root}/p`, "Write the report");
    const model = modelMaking([{ name: "Write", arguments: { path: "report.txt", content: "x" } }], "done");
    const event = await firstRun({ dataDir, model });
    expect(event).toMatchObject({ taskId, success: false });
    expect(model.requests).toHaveLength(0);
    const logs = await runLogs(workspace, `${root}/p`, dataDir, taskId);
    expect(logs).toContain(`it belongs to the workspace ${workspace.label}, and this scheduler was not given it (start the scheduler with workspaces:`);
    await expect(workspace.fs.stat(`${root}/p/report.txt`)).rejects.toMatchObject({ code: "not_found" });
    expect(fs.existsSync(root)).toBe(false);
  });

  it("fail unstarted under a scheduler that confines prompt runs in its sandbox (bubblewrap is local-only)", async () => {
    const root = path.join(temporary, `mem-sandbox-${process.pid}`);
    const workspace = createMemoryWorkspace({ root });
    await workspace.fs.mkdir(`${root}/p`, { recursive: true });
    const { dataDir, taskId } = await promptTaskOn(workspace, `${root}/p`, "Write the report");
    const model = modelMaking([{ name: "Write", arguments: { path: "report.txt", content: "x" } }], "done");
    const event = await firstRun({ dataDir, model, workspaces: [workspace], registryOptions: { sandbox: { enabled: true } } });
    expect(event).toMatchObject({ taskId, success: false });
    expect(model.requests).toHaveLength(0);
    expect(await runLogs(workspace, `${root}/p`, dataDir, taskId)).toContain("which works on this host only");
    await expect(workspace.fs.stat(`${root}/p/report.txt`)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe.skipIf(!asRoot)("prompt cron tasks of a registry on an SSH workspace", () => {
  let sshd: TestSshd;
  let workspace: Workspace;
  beforeAll(async () => {
    sshd = await startTestSshd();
    workspace = await createSshWorkspace(sshd.connectOptions);
  }, 60_000);
  afterAll(async () => {
    await workspace?.close();
    await sshd?.stop();
  });

  it("run on the remote side: Write and Bash of the run go through the workspace (as the SSH user)", async () => {
    const workdir = `${sshd.root}/cron-prompt-${process.pid}`;
    await workspace.fs.mkdir(workdir, { recursive: true });
    const { dataDir, taskId } = await promptTaskOn(workspace, workdir, "Write a note and record who you are");
    const model = modelMaking(
      [
        { name: "Write", arguments: { path: "note.txt", content: "remote note\n" } },
        { name: "Bash", arguments: { command: 'printf "%s %s\\n" "$(pwd)" "$(id -u)" > who.txt' } },
      ],
      "Note written.",
    );
    const event = await firstRun({ dataDir, model, workspaces: [workspace] });
    expect(event, await runLogs(workspace, workdir, dataDir, taskId)).toMatchObject({ taskId, success: true });
    expect((await workspace.fs.readFile(`${workdir}/note.txt`)).toString("utf8")).toBe("remote note\n");
    expect((await workspace.fs.readFile(`${workdir}/who.txt`)).toString("utf8")).toBe(`${workdir} ${sshd.uid}\n`);
    // Written by the SSH user on the remote side (this host plays it), not by this (root) process.
    expect(fs.statSync(`${workdir}/note.txt`).uid).toBe(sshd.uid);
  }, 60_000);
});
