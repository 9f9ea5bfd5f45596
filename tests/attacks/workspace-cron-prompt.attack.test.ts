/**
 * Attacks on prompt cron tasks of a registry built on a non-local workspace
 * (issue 33, item 5), as a model would make them: CronTaskManager through
 * `executeToolCall` on `buildBuiltinToolRegistry({ workspace, cron })`,
 * fired by `startBuiltinCronScheduler({ model, workspaces })` with a
 * scripted model that tries to Write in the run's workdir.
 *
 * - the task's workdir swapped for a symlink to outside the workspace's
 *   root after the task was created (memory workspace; and over SSH by the
 *   model's own Bash on the remote side): the run is refused and the task
 *   disabled, the model never asked, nothing written outside;
 * - the workdir swapped for a symlink to a sibling project (inside the
 *   root, outside the task's roots) between the run's check and its
 *   registry's build (deterministic: the workspace swaps it on the build's
 *   realpath): refused (without the registry's workdir re-checked after
 *   its build, the registry was built on the sibling and Write landed there);
 * - a scheduler given a workspace of the task's label opened on another
 *   root (over SSH: the label names the account and host, not the root):
 *   the prompt task and a bash task of the same registry are refused and
 *   disabled (was a hole for the bash task: its script ran outside the
 *   scheduler's workspace root).
 *
 * The SSH cases run as root (the test sshd's dedicated account); the memory
 * cases everywhere.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolResultText } from "../../packages/core/src/index.js";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import { type MemoryWorkspace, type Workspace, createMemoryWorkspace } from "../../packages/core/src/workspace/index.js";
import { KyselyCronStore } from "../../packages/cron/src/index.js";
import { buildBuiltinToolRegistry, startBuiltinCronScheduler } from "../../packages/sdk/src/index.js";
import { leaseSqliteStorage } from "../../packages/storage/src/index.js";
import { asRoot, useSshWorkspaceHarness } from "./__fixtures__/ssh-workspace.js";

const harness = useSshWorkspaceHarness();

/** A task created by CronTaskManager on a registry built on `workspace` at `registryWorkdir`, with the given fields. */
async function createTask(workspace: Workspace, registryWorkdir: string, dataDir: string, fields: Record<string, unknown>): Promise<string> {
  const registry = await buildBuiltinToolRegistry({ workspace, workdir: registryWorkdir, dataDir, memory: false, cron: { currentModelId: () => "m" } });
  try {
    const created = await registry.executeToolCall({
      id: "create",
      name: "CronTaskManager",
      arguments: { action: "create", name: "attack", cron: "* * * * * *", remaining_executions: 1, ...fields },
    });
    const text = toolResultText(created, "");
    expect(created.isError, text).toBe(false);
    return /task_id=(\S+)/.exec(text)?.[1] as string;
  } finally {
    await registry.close();
  }
}

/** A prompt task (the model will Write `pwned.txt` in its workdir). */
function promptTask(workspace: Workspace, registryWorkdir: string, dataDir: string, workdir: string): Promise<string> {
  return createTask(workspace, registryWorkdir, dataDir, { type: "prompt", prompt: "Write pwned.txt", workdir });
}

/** A model that Writes `pwned.txt` in the run's workdir, then answers. */
function writingModel(): ScriptedModelClient {
  return new ScriptedModelClient({
    id: "m",
    respond: (request) =>
      request.messages.some((message) => message.role === "tool")
        ? "done"
        : { toolCalls: [{ name: "Write", arguments: { path: "pwned.txt", content: "PWNED\n" } }] },
  });
}

/** Runs a scheduler until the first run finishes (generous wait); returns its success. */
async function firstRun(options: Parameters<typeof startBuiltinCronScheduler>[0]): Promise<boolean> {
  let resolve: (success: boolean) => void = () => undefined;
  const finished = new Promise<boolean>((done) => {
    resolve = done;
  });
  const scheduler = await startBuiltinCronScheduler({
    ...options,
    tickMs: 100,
    onEvent: (event) => {
      if (event.type === "run-finished") resolve(event.success);
    },
  });
  try {
    return await Promise.race([finished, new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no run within 30 s")), 30_000).unref())]);
  } finally {
    await scheduler.stop();
  }
}

/** The task's `enabled` and its latest run's whole output, read through the store. */
async function outcomeOf(dataDir: string, taskId: string): Promise<{ enabled: boolean | undefined; output: string }> {
  const lease = leaseSqliteStorage({ dataDir });
  try {
    const store = await KyselyCronStore.open(await lease.get());
    return { enabled: (await store.getTask(taskId))?.enabled, output: (await store.listRuns(taskId, { limit: 1 }))[0]?.output ?? "" };
  } finally {
    await lease.release();
  }
}

/** `workspace` whose `fs.realpath` of `path` runs `onRealpath` once first (the swap a racing model makes between two checks). */
function swappingOnRealpath(workspace: MemoryWorkspace, watched: string, onRealpath: () => Promise<void>): Workspace {
  let fired = false;
  const fsView = Object.create(workspace.fs, {
    realpath: {
      value: async (target: string) => {
        if (target === watched && !fired) {
          fired = true;
          await onRealpath();
        }
        return workspace.fs.realpath(target);
      },
    },
  });
  return Object.create(workspace, { fs: { value: fsView, enumerable: true } }) as Workspace;
}

const local = fs.realpathSync(harness.localTemporary);
let cases = 0;
const dataDirOf = () => path.join(local, `cron-prompt-${++cases}`);

describe("attack: prompt cron tasks of a registry on a memory workspace", () => {
  it("a workdir swapped for a symlink to outside the workspace's root before the run: refused, task disabled, model never asked, nothing written", async () => {
    const workspace = createMemoryWorkspace({ root: "/srv/app" });
    await workspace.fs.mkdir("/srv/app/jobs", { recursive: true });
    await workspace.fs.mkdir("/srv/outside", { recursive: true });
    const dataDir = dataDirOf();
    const taskId = await promptTask(workspace, "/srv/app", dataDir, "/srv/app/jobs");
    await workspace.fs.rename("/srv/app/jobs", "/srv/app/jobs.real");
    await workspace.symlink("/srv/outside", "/srv/app/jobs");
    const model = writingModel();
    expect(await firstRun({ dataDir, model, workspaces: [workspace] })).toBe(false);
    expect(model.requests).toHaveLength(0);
    const { enabled, output } = await outcomeOf(dataDir, taskId);
    expect(output).toContain("The working directory /srv/app/jobs of task");
    expect(output).toContain("(it resolves to /srv/outside) is outside the directories the registry that created the task may write");
    expect(enabled).toBe(false);
    await expect(workspace.fs.stat("/srv/outside/pwned.txt")).rejects.toMatchObject({ code: "not_found" });
    expect(fs.existsSync("/srv/outside/pwned.txt")).toBe(false);
  });

  it("a workdir swapped for a symlink to a sibling project between the run's check and its registry's build: refused, the sibling untouched", async () => {
    const memory = createMemoryWorkspace({ root: "/srv" });
    await memory.fs.mkdir("/srv/app/jobs", { recursive: true });
    await memory.fs.mkdir("/srv/other", { recursive: true });
    const dataDir = dataDirOf();
    const taskId = await promptTask(memory, "/srv/app", dataDir, "/srv/app/jobs");
    // The run's checks resolve the workdir component by component; the registry's build resolves it with realpath: swap in between.
    const workspace = swappingOnRealpath(memory, "/srv/app/jobs", async () => {
      await memory.fs.rename("/srv/app/jobs", "/srv/app/jobs.real");
      await memory.symlink("/srv/other", "/srv/app/jobs");
    });
    const model = writingModel();
    expect(await firstRun({ dataDir, model, workspaces: [workspace] })).toBe(false);
    expect(model.requests).toHaveLength(0);
    const { output } = await outcomeOf(dataDir, taskId);
    expect(output).toContain("changed while the run was starting (its registry resolved it to /srv/other, not /srv/app/jobs); the run was refused.");
    await expect(memory.fs.stat("/srv/other/pwned.txt")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe.skipIf(!asRoot)("attack: prompt cron tasks of a registry on an SSH workspace", () => {
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = await harness.openWorkspace();
  });
  afterAll(async () => {
    await workspace?.close();
  });

  it("the model's Bash swaps the task's workdir for a symlink to outside the root: the run is refused, the task disabled, nothing written outside", async () => {
    const { workdir, outside, registry, dataDir } = await harness.scene({ workspace: await harness.openWorkspace() });
    const jobs = `${workdir}/sub`;
    const taskId = await promptTask(workspace, workdir, dataDir, jobs);
    // The model's own Bash, on the remote side, through the registry it works in.
    const swapped = await harness.call(registry, "Bash", { command: `mv sub sub.real && ln -s '${outside}/dir' sub && echo swapped` });
    expect(swapped.text).toContain("swapped");
    const before = fs.readdirSync(`${outside}/dir`);
    const model = writingModel();
    expect(await firstRun({ dataDir, model, workspaces: [workspace] })).toBe(false);
    expect(model.requests).toHaveLength(0);
    const { enabled, output } = await outcomeOf(dataDir, taskId);
    expect(output).toContain(`(it resolves to ${outside}/dir) is outside the directories the registry that created the task may write`);
    expect(enabled).toBe(false);
    expect(fs.readdirSync(`${outside}/dir`)).toEqual(before);
  });

  it("a scheduler given a workspace of the task's label on another root: the prompt and the bash task are refused and disabled, nothing run outside that root", async () => {
    const { workdir, dataDir } = await harness.scene({ workspace: await harness.openWorkspace() });
    const narrowRoot = `${harness.sshd.root}/narrow-${process.pid}`;
    harness.asUser(`mkdir -p '${narrowRoot}'`);
    const narrow = await harness.openWorkspace(undefined, undefined, narrowRoot);
    harness.cleanups.push(() => narrow.close());
    expect(narrow.label).toBe(workspace.label);
    const promptId = await promptTask(workspace, workdir, dataDir, workdir);
    const bashId = await createTask(workspace, workdir, dataDir, { type: "bash", script: "touch bash-pwned.txt" });
    const model = writingModel();
    const finished: boolean[] = [];
    const scheduler = await startBuiltinCronScheduler({
      dataDir,
      model,
      workspaces: [narrow],
      tickMs: 100,
      onEvent: (event) => {
        if (event.type === "run-finished") finished.push(event.success);
      },
    });
    try {
      const deadline = Date.now() + 30_000;
      while (finished.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await scheduler.stop();
    }
    expect(finished).toEqual([false, false]);
    expect(model.requests).toHaveLength(0);
    for (const id of [promptId, bashId]) {
      const { enabled, output } = await outcomeOf(dataDir, id);
      expect(output, id).toContain(`is outside the root ${narrowRoot} of the workspace ${workspace.label} this scheduler was given`);
      expect(enabled, id).toBe(false);
    }
    expect(fs.existsSync(`${workdir}/pwned.txt`)).toBe(false);
    expect(fs.existsSync(`${workdir}/bash-pwned.txt`)).toBe(false);
  });
});
