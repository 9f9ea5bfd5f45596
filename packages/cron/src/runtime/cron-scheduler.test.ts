import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createToolRegistry } from "@agent-tools/core";
import { ScriptedModelClient } from "@agent-tools/core/testing";
import { ExecaProcessRunner } from "@agent-tools/node";
import { createFsToolBundle } from "@agent-tools/tools-fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CRON_LIMITS } from "../domain/cron-types.js";
import type { CronStore } from "../ports/cron-store.js";
import { InMemoryCronStore } from "../ports/in-memory-cron-store.js";
import { type SchedulerHarness, T0, newTask, startHarness, wrapStore } from "./__fixtures__/scheduler-harness.js";
import { ManualCronClock } from "./cron-clock.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-scheduler-"));
const processRunner = new ExecaProcessRunner();
const harnesses: SchedulerHarness[] = [];
let base = "";
const server = http.createServer((request, response) => {
  response.statusCode = request.url === "/ok" ? 200 : 503;
  response.end(request.url === "/ok" ? "pong" : "down");
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.scheduler.stop()));
});
afterAll(async () => {
  await processRunner.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(temporary, { recursive: true, force: true });
});

async function harness(options: Parameters<typeof startHarness>[1] = {}): Promise<SchedulerHarness> {
  const started = await startHarness(processRunner, options);
  harnesses.push(started);
  return started;
}

const buildPromptRegistry = async (workdir: string) =>
  createToolRegistry({ workdir, runtimeScope: "cron", dataDir: path.join(temporary, ".data"), bundles: [createFsToolBundle({ ripgrepPath: false })] });

describe("startCronScheduler: firing", () => {
  it("runs a bash task at every occurrence and logs each run", async () => {
    const h = await harness();
    const task = await h.createTask({ type: "bash", script: "echo tick $PWD", workdir: temporary });
    await h.advance(3_000);
    const runs = await h.store.listRuns(task.id);
    expect(runs.map((run) => run.scheduledAt)).toEqual([T0 + 3_000, T0 + 2_000, T0 + 1_000]);
    for (const run of runs) {
      expect(run).toMatchObject({ state: "done", success: true, exitCode: 0, output: `tick ${temporary}\n` });
    }
    expect(h.events.filter((event) => event.type === "run-finished")).toHaveLength(3);
  });

  it("runs http tasks: failure sets lastError, success clears it", async () => {
    const h = await harness();
    const task = await h.createTask({ type: "http", cron: "*/2 * * * * *", requests: [{ id: "req-1", url: `${base}/down`, method: "GET" }] });
    await h.advance(2_000);
    const failed = await h.store.getTask(task.id);
    expect(failed?.lastError).toContain("-> 503");
    expect((await h.store.listRuns(task.id))[0]).toMatchObject({ success: false, exitCode: 503 });
    await h.store.updateTask(task.id, { requests: [{ id: "req-1", url: `${base}/ok`, method: "GET" }] }, h.clock.now());
    await h.advance(2_000);
    const [latest] = await h.store.listRuns(task.id);
    expect(latest).toMatchObject({ success: true, exitCode: 200, scheduledAt: T0 + 4_000 });
    expect(latest?.output).toContain("pong");
    expect((await h.store.getTask(task.id))?.lastError).toBeUndefined();
  });

  it("queues prompt runs and a scheduler with a model runs them through the cron registry", async () => {
    fs.writeFileSync(path.join(temporary, "status.txt"), "all green\n");
    const model = new ScriptedModelClient({
      respond: (request) =>
        request.messages.at(-1)?.role === "tool" ? "Status: all green." : { toolCalls: [{ name: "Read", arguments: { path: "status.txt" } }] },
    });
    const h = await harness({ model, buildPromptRegistry });
    const task = await h.createTask({ type: "prompt", cron: "*/5 * * * * *", prompt: "Read status.txt and report.", workdir: temporary, selectedModel: "m" });
    await h.advance(5_000);
    await h.scheduler.tick(); // the worker claims what the tick queued
    await h.scheduler.idle();
    const runs = await h.store.listRuns(task.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ state: "done", success: true, scheduledAt: T0 + 5_000, output: "Status: all green.\nTool calls: 1 (Read x1)." });
    expect(h.events.some((event) => event.type === "run-queued")).toBe(true);
  });

  it("a scheduler without a model queues prompt runs; another scheduler on the same store with a model runs them", async () => {
    const store = new InMemoryCronStore();
    const clock = new ManualCronClock(T0);
    const queuer = await harness({ store, clock, owner: "no-model" });
    const model = new ScriptedModelClient({ respond: () => "done remotely" });
    const worker = await harness({ store, clock, owner: "with-model", model, buildPromptRegistry });
    const task = await store.createTask(newTask({ type: "prompt", cron: "*/2 * * * * *", prompt: "p", workdir: temporary }), T0);
    // Only the queuer ticks while the occurrence falls due: it claims and queues it.
    await queuer.advance(2_000);
    expect((await store.listRuns(task.id))[0]).toMatchObject({ state: "pending" });
    await worker.scheduler.tick();
    await worker.scheduler.idle();
    expect((await store.listRuns(task.id))[0]).toMatchObject({ state: "done", success: true, output: "done remotely\nTool calls: 0." });
    expect(worker.events.some((event) => event.type === "run-started")).toBe(true);
    expect(queuer.events.some((event) => event.type === "run-started")).toBe(false);
  });

  it("leaves prompt runs queued without a model, and expires them after 10 minutes", async () => {
    const h = await harness();
    const task = await h.createTask({ type: "prompt", cron: "0 0 * * * *", prompt: "p", workdir: temporary }, T0 - 1);
    await h.advance(1_000);
    // T0 itself was before start (skipped); fire at the next hour by moving close to it.
    await h.clock.advance(3_600_000 - 2_000);
    await h.advance(1_000);
    const [queued] = await h.store.listRuns(task.id);
    expect(queued).toMatchObject({ state: "pending", scheduledAt: T0 + 3_600_000 });
    await h.clock.advance(CRON_LIMITS.promptQueueExpiryMs - 30_000);
    await h.advance(1_000);
    expect((await h.store.getRun(queued!.id))?.state).toBe("pending");
    // The sweeper runs every 30 s, so expiry comes within 30 s of the 10 minutes.
    await h.advance(30_000 + CRON_LIMITS.sweepIntervalMs);
    expect((await h.store.getRun(queued!.id))?.state).toBe("expired");
    expect(h.events.some((event) => event.type === "runs-expired" && event.count === 1)).toBe(true);
  });

  it("disables a task whose workdir is missing and records why", async () => {
    const h = await harness();
    const gone = path.join(temporary, "removed-dir");
    const task = await h.createTask({ type: "bash", script: "echo hi", workdir: gone });
    await h.advance(3_000);
    const runs = await h.store.listRuns(task.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ success: false });
    expect(runs[0]?.output).toContain(`The working directory ${gone}`);
    const stored = await h.store.getTask(task.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.lastError).toContain("does not exist");
    expect(h.events.some((event) => event.type === "task-disabled" && event.taskId === task.id)).toBe(true);
  });

  it("stops firing when remaining executions reach 0", async () => {
    const h = await harness();
    const task = await h.createTask({ type: "bash", script: "true", workdir: temporary, remainingExecutions: 2 });
    await h.advance(5_000);
    expect((await h.store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([T0 + 2_000, T0 + 1_000]);
    expect((await h.store.getTask(task.id))?.remainingExecutions).toBe(0);
  });

  it("picks up a task created, changed or enabled after start without a restart", async () => {
    const h = await harness();
    await h.advance(2_000);
    const task = await h.createTask({ type: "bash", script: "echo one", workdir: temporary, cron: "*/2 * * * * *" });
    await h.advance(2_000);
    expect((await h.store.listRuns(task.id)).map((run) => run.output)).toEqual(["one\n"]);
    await h.store.updateTask(task.id, { script: "echo two" }, h.clock.now());
    await h.advance(2_000);
    expect((await h.store.listRuns(task.id))[0]?.output).toBe("two\n");
    await h.store.updateTask(task.id, { enabled: false }, h.clock.now());
    await h.advance(4_000);
    expect(await h.store.listRuns(task.id)).toHaveLength(2);
    await h.store.updateTask(task.id, { enabled: true }, h.clock.now());
    await h.advance(2_000);
    // Re-enabled at T0 + 10 s: it fires again after that, not for the occurrences while it was disabled (8 s, 10 s).
    expect((await h.store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([T0 + 12_000, T0 + 6_000, T0 + 4_000]);
  });

  it("never lets an error stop the loop", async () => {
    const store = new InMemoryCronStore();
    let failures = 2;
    const flaky = wrapStore(store, {
      tasksFingerprint: async () => {
        if (failures-- > 0) throw new Error("database unavailable");
        return store.tasksFingerprint();
      },
    });
    const task = await store.createTask(newTask({ name: "t", cron: "* * * * * *", type: "bash", script: "true", workdir: temporary }), T0);
    const h = await harness({ store: flaky });
    await h.advance(3_000);
    expect(h.events.filter((event) => event.type === "error" && event.message.includes("database unavailable"))).toHaveLength(2);
    expect((await store.listRuns(task.id)).length).toBeGreaterThanOrEqual(1);
  });
});

describe("startCronScheduler: missed runs, leases, upkeep, stop", () => {
  async function taskWithHistory(store: CronStore) {
    const task = await store.createTask(newTask({ name: "t", cron: "*/10 * * * * *", type: "bash", script: "true", workdir: temporary }), T0 - 120_000);
    const first = await store.claimOccurrence({ taskId: task.id, scheduledAt: T0 - 100_000, owner: "old", now: T0 - 100_000, leaseMs: 60_000 });
    await store.finishRun(first!.id, "old", { success: true, finishedAt: T0 - 99_000, output: "" });
    return task;
  }

  it("skips occurrences missed while no scheduler ran (default)", async () => {
    const store = new InMemoryCronStore();
    const task = await taskWithHistory(store);
    const h = await harness({ store, start: T0 + 5_000 });
    await h.advance(4_000);
    expect((await store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([T0 - 100_000]);
    await h.advance(1_000);
    expect((await store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([T0 + 10_000, T0 - 100_000]);
  });

  it("runs the latest missed occurrence once with run_once", async () => {
    const store = new InMemoryCronStore();
    const task = await taskWithHistory(store);
    const h = await harness({ store, start: T0 + 5_000, missedRunPolicy: "run_once" });
    await h.advance(5_000);
    expect((await store.listRuns(task.id)).map((run) => run.scheduledAt)).toEqual([T0 + 10_000, T0, T0 - 100_000]);
  });

  it("treats occurrences more than catchUpMs late as missed (skip: dropped; run_once: the latest runs once)", async () => {
    for (const policy of ["skip", "run_once"] as const) {
      const h = await harness({ missedRunPolicy: policy, catchUpMs: 5_000 });
      const task = await h.createTask({ type: "bash", script: "true", workdir: temporary, cron: "*/10 * * * * *" });
      await h.advance(10_000);
      // The host sleeps for 50 minutes: no tick runs.
      await h.clock.advance(3_000_000);
      await h.advance(1_000);
      const times = (await h.store.listRuns(task.id, { limit: 500 })).map((run) => run.scheduledAt - T0);
      if (policy === "skip") expect(times).toEqual([3_010_000, 10_000]);
      else expect(times).toEqual([3_010_000, 3_000_000, 10_000]);
    }
  });

  it("does not fire the occurrences of the time a task was exhausted when it is refilled", async () => {
    const h = await harness();
    const task = await h.createTask({ type: "bash", script: "true", workdir: temporary, remainingExecutions: 1 });
    await h.advance(5_000);
    await h.store.updateTask(task.id, { remainingExecutions: 1 }, h.clock.now());
    await h.advance(1_000);
    expect((await h.store.listRuns(task.id)).map((run) => run.scheduledAt - T0)).toEqual([6_000, 1_000]);
  });

  it("takes over a run whose scheduler died (lapsed lease) and runs it again", async () => {
    const store = new InMemoryCronStore();
    const task = await store.createTask(newTask({ name: "t", cron: "0 0 0 1 1 *", type: "bash", script: "echo again", workdir: temporary }), T0 - 10_000);
    const orphan = await store.claimOccurrence({ taskId: task.id, scheduledAt: T0, owner: "dead", now: T0, leaseMs: 5_000 });
    const h = await harness({ store, start: T0 + 1_000 });
    await h.advance(3_000);
    expect((await store.getRun(orphan!.id))?.state).toBe("leased");
    await h.advance(2_000);
    expect(await store.getRun(orphan!.id)).toMatchObject({ state: "done", success: true, output: "again\n" });
    expect(h.events.some((event) => event.type === "run-started" && event.takenOver)).toBe(true);
  });

  it("prunes runs beyond 200 per task and older than 30 days", async () => {
    const store = new InMemoryCronStore();
    const task = await store.createTask(newTask({ name: "t", cron: "0 0 0 1 1 *", type: "bash", script: "true", workdir: temporary }), T0 - 40 * 86_400_000);
    const old = await store.claimOccurrence({ taskId: task.id, scheduledAt: T0 - 31 * 86_400_000, owner: "x", now: T0 - 31 * 86_400_000, leaseMs: 1_000 });
    await store.finishRun(old!.id, "x", { success: true, finishedAt: T0 - 31 * 86_400_000, output: "" });
    for (let index = 0; index < 205; index += 1) {
      const at = T0 - 86_400_000 + index * 1_000;
      const run = await store.claimOccurrence({ taskId: task.id, scheduledAt: at, owner: "x", now: at, leaseMs: 1_000 });
      await store.finishRun(run!.id, "x", { success: true, finishedAt: at + 10, output: "" });
    }
    expect(await store.listRuns(task.id, { limit: 500 })).toHaveLength(206);
    const h = await harness({ store });
    const kept = await store.listRuns(task.id, { limit: 500 });
    expect(kept).toHaveLength(200);
    expect(kept.at(-1)?.scheduledAt).toBe(T0 - 86_400_000 + 5_000);
    expect(h.events.some((event) => event.type === "runs-pruned" && event.count === 6)).toBe(true);
  });

  it("stop() aborts runs in progress, kills their processes and records them as failed", async () => {
    const pidFile = path.join(temporary, "stop.pid");
    const h = await harness();
    const task = await h.createTask({ type: "bash", script: `echo $$ > ${pidFile}; sleep 1000`, workdir: temporary });
    await h.clock.advance(1_000);
    await h.scheduler.tick();
    while (!fs.existsSync(pidFile) || fs.readFileSync(pidFile, "utf8").trim() === "") await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.scheduler.activeRuns).toBe(1);
    await h.scheduler.stop();
    const [run] = await h.store.listRuns(task.id);
    expect(run).toMatchObject({ state: "done", success: false });
    expect(run?.output).toContain("cancelled");
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
    expect(h.events.at(-1)).toMatchObject({ type: "stopped" });
  });
});
