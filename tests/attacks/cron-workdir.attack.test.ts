/**
 * Attacks on cron tasks' workdirs and confinement (issue 29, item 5), as a
 * model would make them: CronTaskManager through `executeToolCall` on
 * registries of `buildBuiltinToolRegistry`, fired by
 * `startBuiltinCronScheduler` with real bubblewrap and real SQLite.
 *
 * A task's workdir must lie in the workspace or a root granted with write
 * access of the registry that created it: `/`, `..`, a symlink leading out
 * and any outside path are refused when the task is created, and again
 * when it runs (a folder swapped for a symlink, a task stored before the
 * check existed); nothing outside is ever written. A scheduler cannot widen
 * the creating registry's sandbox or network.
 *
 * `ATTACK_ROUNDS` (default 3) sets how many runs race a workdir swap.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedModelClient } from "../../packages/core/src/testing/index.js";
import { buildBuiltinToolRegistry } from "../../packages/sdk/src/index.js";
import { ROUNDS, cron, directories, logsOf, runScheduler, sandboxSkip, storeLegacyTask, taskIdOf } from "./cron-attack-helpers.js";

describe.skipIf(sandboxSkip)("cron attacks: a task's workdir stays inside the creating registry's writable roots", () => {
  it("refuses `/`, `..`, a symlink leading out, an outside path and a read-only root at create and update, naming the allowed roots", async () => {
    const { workdir, outside, dataDir, shared, reference } = directories();
    fs.mkdirSync(path.join(workdir, "sub"));
    fs.mkdirSync(path.join(shared, "jobs"));
    fs.symlinkSync(outside, path.join(workdir, "escape"));
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      cron: {},
      sandbox: { enabled: true },
      additionalRoots: [
        { alias: "shared", path: shared, access: "write" },
        { alias: "reference", path: reference, access: "read" },
      ],
    });
    try {
      const base = { action: "create", name: "w", cron: "0 0 * * * *", type: "bash", script: "touch pwned" };
      for (const workdirInput of ["/", `${workdir}/..`, `${workdir}/sub/../../outside`, path.join(workdir, "escape"), outside, reference, "/etc"]) {
        const refused = await cron(registry, { ...base, workdir: workdirInput });
        expect(refused.isError, `workdir ${workdirInput}`).toBe(true);
        expect(refused.text).toMatch(/outside the directories this registry may write/);
        expect(refused.text).toContain(workdir);
        expect(refused.text).toContain(`root://shared (${shared})`);
      }
      for (const allowed of ["", workdir, path.join(workdir, "sub"), path.join(shared, "jobs")]) {
        const created = await cron(registry, { ...base, workdir: allowed });
        expect(created.isError, `${allowed}: ${created.text}`).toBe(false);
      }
      const id = taskIdOf((await cron(registry, { ...base, workdir: path.join(workdir, "sub") })).text);
      const moved = await cron(registry, { action: "update", task_id: id, workdir: "/" });
      expect(moved.isError).toBe(true);
      expect(moved.text).toMatch(/outside the directories this registry may write/);
    } finally {
      await registry.close();
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it(`refuses a run whose workdir was swapped for a symlink leading out (${ROUNDS} runs racing the swap): nothing outside is written`, async () => {
    const { workdir, outside, dataDir } = directories();
    const sub = path.join(workdir, "sub");
    fs.mkdirSync(sub);
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    const created = await cron(registry, {
      action: "create",
      name: "swap",
      cron: "* * * * * *",
      type: "bash",
      workdir: sub,
      script: "touch pwned-$$; echo ran",
      remaining_executions: ROUNDS + 1,
    });
    expect(created.isError, created.text).toBe(false);
    const taskId = taskIdOf(created.text);
    await registry.close();

    // First run: the folder is swapped for a symlink before the scheduler starts.
    fs.rmSync(sub, { recursive: true });
    fs.symlinkSync(outside, sub);
    const first = await runScheduler(dataDir, 1, { registryOptions: { sandbox: { enabled: true } } });
    expect(first).toEqual([false]);
    const logs = await logsOf(dataDir, workdir, taskId);
    expect(logs).toMatch(/\[failed\]/);
    expect(logs).toContain(outside);
    expect(logs).toMatch(/outside the directories/);
    expect(fs.readdirSync(outside)).toEqual([]);

    // Then the swap races the runs: ROUNDS tasks fire together while a real folder and a symlink leading out are flipped as fast as possible.
    const fix = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
    fs.rmSync(sub);
    fs.mkdirSync(sub);
    for (let round = 0; round < ROUNDS; round += 1) {
      const racer = await cron(fix, {
        action: "create",
        name: `race ${round}`,
        cron: "* * * * * *",
        type: "bash",
        workdir: sub,
        script: "touch pwned-$$",
        remaining_executions: 1,
      });
      expect(racer.isError, racer.text).toBe(false);
    }
    await fix.close();
    let flipping = true;
    const flipper = (async () => {
      const spare = path.join(workdir, "spare");
      while (flipping) {
        try {
          fs.renameSync(sub, spare);
          fs.symlinkSync(outside, sub);
          await new Promise((resolve) => setImmediate(resolve));
          fs.rmSync(sub);
          fs.renameSync(spare, sub);
        } catch {
          // a run holds the folder: try again
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await runScheduler(dataDir, ROUNDS, { registryOptions: { sandbox: { enabled: true } } });
    } finally {
      flipping = false;
      await flipper;
    }
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 120_000);

  it("fails a task stored before the check with a bad workdir at run time, with the reason, and disables it", async () => {
    const { workdir, outside, dataDir } = directories();
    const rooted = await storeLegacyTask(dataDir, { workdir: "/", script: `touch ${outside}/pwned-from-root` });
    const outsider = await storeLegacyTask(dataDir, { workdir: outside, script: "touch pwned" });
    const results = await runScheduler(dataDir, 2, { registryOptions: { sandbox: { enabled: true } } });
    expect(results).toEqual([false, false]);
    expect(fs.readdirSync(outside)).toEqual([]);
    for (const id of [rooted, outsider]) {
      const logs = await logsOf(dataDir, workdir, id);
      expect(logs).toMatch(/no record of the roots, sandbox and network of the registry that created it/);
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
      try {
        expect((await cron(registry, { action: "read", task_id: id })).text).toContain("enabled=false");
      } finally {
        await registry.close();
      }
    }
  }, 240_000);
});

describe.skipIf(sandboxSkip)("cron attacks: a scheduler cannot widen the rules of the registry that created a task", () => {
  let port = 0;
  const listener = http.createServer((_request, response) => response.end("reached"));
  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
  });
  afterAll(async () => {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });

  it("confines a bash task of a sandboxed registry on a scheduler without a sandbox (dataDir masked), and keeps its network off on one that allows it", async () => {
    const { workdir, outside } = directories();
    // A dataDir outside /tmp (the sandbox's /tmp is private anyway), where a host keeps it: under the home directory.
    const dataDir = fs.mkdtempSync(path.join(os.homedir(), ".agent-tools-cron-attack-"));
    try {
      const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {}, sandbox: { enabled: true } });
      const script = [
        `touch ${outside}/pwned`,
        `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected) || echo no-network`,
        `(head -c 16 ${dataDir}/agent-tools.sqlite | grep -q SQLite && echo read-datadir) || echo no-datadir`,
        "echo ran > ran.txt",
      ].join("; ");
      const created = await cron(registry, { action: "create", name: "escape", cron: "* * * * * *", type: "bash", script, remaining_executions: 2 });
      expect(created.isError, created.text).toBe(false);
      const taskId = taskIdOf(created.text);
      await registry.close();
      // No sandbox asked of the scheduler, then one with the network on: both keep the task's registry's rules.
      await runScheduler(dataDir, 1);
      await runScheduler(dataDir, 1, { registryOptions: { sandbox: { enabled: true, allowNetwork: true } } });
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(fs.readFileSync(path.join(workdir, "ran.txt"), "utf8")).toBe("ran\n");
      const logs = await logsOf(dataDir, workdir, taskId);
      expect(logs).not.toContain("connected");
      expect(logs.match(/no-network/g)).toHaveLength(2);
      // The dataDir (tasks, memory, tokens) is masked as in the registry's own commands.
      expect(logs).not.toContain("read-datadir");
      expect(logs.match(/no-datadir/g)).toHaveLength(2);
      expect(logs).toMatch(/touch: cannot touch .*pwned/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);

  it("runs a prompt task of a sandboxed registry with that registry's sandbox and roots, whatever the scheduler was given", async () => {
    const { workdir, outside, dataDir, shared } = directories();
    const model = new ScriptedModelClient({
      id: "model-a",
      respond: (request) =>
        request.messages.some((message) => message.role === "tool")
          ? "done"
          : {
              toolCalls: [
                { name: "Bash", arguments: { command: `touch ${outside}/from-prompt; echo inside > in-workspace.txt` } },
                { name: "Write", arguments: { path: "root://shared/note.txt", content: "hi" } },
              ],
            },
    });
    const additionalRoots = [{ alias: "shared", path: shared, access: "write" as const }];
    const registry = await buildBuiltinToolRegistry({
      workdir,
      dataDir,
      additionalRoots,
      cron: { currentModelId: () => model.id },
      sandbox: { enabled: true },
    });
    const created = await cron(registry, { action: "create", name: "digest", cron: "* * * * * *", type: "prompt", prompt: "work", remaining_executions: 1 });
    expect(created.isError, created.text).toBe(false);
    await registry.close();
    expect(await runScheduler(dataDir, 1, { model })).toEqual([true]);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.readFileSync(path.join(workdir, "in-workspace.txt"), "utf8")).toBe("inside\n");
    expect(fs.readFileSync(path.join(shared, "note.txt"), "utf8")).toBe("hi");
    const bashResult = model.requests[1]?.messages.find((message) => message.role === "tool")?.content;
    expect(String(bashResult)).toMatch(/sandbox: bubblewrap/);
  }, 240_000);
});
