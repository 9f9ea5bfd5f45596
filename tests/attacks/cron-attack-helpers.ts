/**
 * Shared setup of the cron attack files: temporary layouts, CronTaskManager
 * calls through `executeToolCall`, a scheduler run until N runs finished,
 * run logs, and tasks stored straight into the store (as hosts, and
 * versions before the policy record, do).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { toolResultText } from "../../packages/core/src/index.js";
import { KyselyCronStore } from "../../packages/cron/src/index.js";
import { type BuiltinToolRegistry, buildBuiltinToolRegistry, startBuiltinCronScheduler } from "../../packages/sdk/src/index.js";
import { leaseSqliteStorage } from "../../packages/storage/src/index.js";

/** How many runs race a swap (`ATTACK_ROUNDS`, default 3). */
export const ROUNDS = Math.max(1, Number(process.env.ATTACK_ROUNDS ?? 3));

/** True where bubblewrap is missing and this is not CI (CI must have it). */
export const sandboxSkip = !fs.existsSync("/usr/bin/bwrap") && !process.env.CI;
if (sandboxSkip) console.warn("cron sandbox attacks skipped: bubblewrap (/usr/bin/bwrap) is not installed");

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-cron-attack-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A fresh case: project (the workspace), outside, data, shared and reference folders. */
export function directories() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  for (const name of ["project", "outside", "data", "shared", "reference"]) fs.mkdirSync(path.join(base, name));
  return {
    base,
    workdir: path.join(base, "project"),
    outside: path.join(base, "outside"),
    dataDir: path.join(base, "data"),
    shared: path.join(base, "shared"),
    reference: path.join(base, "reference"),
  };
}

/** Polls `probe` until it gives a value. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One CronTaskManager call, as a model makes it. */
export async function cron(registry: BuiltinToolRegistry, args: Record<string, unknown>) {
  const result = await registry.executeToolCall({ id: `call-${Math.random()}`, name: "CronTaskManager", arguments: args });
  return { isError: result.isError === true, text: toolResultText(result, "") };
}

/** The task id of a create answer. */
export function taskIdOf(text: string): string {
  const id = /task_id=(\S+)/.exec(text)?.[1];
  if (id === undefined) throw new Error(`no task id in: ${text}`);
  return id;
}

/** Runs the scheduler until `runs` runs have finished; returns their outcomes. */
export async function runScheduler(dataDir: string, runs: number, options: Parameters<typeof startBuiltinCronScheduler>[0] = {}): Promise<boolean[]> {
  const finished: boolean[] = [];
  const scheduler = await startBuiltinCronScheduler({
    dataDir,
    tickMs: 100,
    ...options,
    onEvent: (event) => {
      if (event.type === "run-finished") finished.push(event.success);
    },
  });
  try {
    // A sandboxed run starts bubblewrap and a registry: on a loaded machine that took over 30 s.
    await waitFor(() => (finished.length >= runs ? true : undefined), `${runs} finished runs`, 120_000);
    await scheduler.idle();
  } finally {
    await scheduler.stop();
  }
  return finished;
}

/** The run log a model reads (`list_logs`). */
export async function logsOf(dataDir: string, workdir: string, taskId: string): Promise<string> {
  const registry = await buildBuiltinToolRegistry({ workdir, dataDir, cron: {} });
  try {
    return (await cron(registry, { action: "list_logs", task_id: taskId })).text;
  } finally {
    await registry.close();
  }
}

/** Stores a task the way versions before the workdir check did: straight into the store, no record of its registry. */
export async function storeLegacyTask(dataDir: string, fields: Record<string, unknown>): Promise<string> {
  const lease = leaseSqliteStorage({ dataDir });
  try {
    const store = await KyselyCronStore.open(await lease.get());
    const task = await store.createTask(
      { name: "legacy", description: "", cron: "* * * * * *", enabled: true, remainingExecutions: 1, timeoutSeconds: 30, type: "bash", ...fields } as never,
      Date.now(),
    );
    return task.id;
  } finally {
    await lease.release();
  }
}

/** The whole output of a task's latest run, read through the store (the log shows 600 characters). */
export async function lastRunOutput(dataDir: string, taskId: string): Promise<string> {
  const lease = leaseSqliteStorage({ dataDir });
  try {
    const store = await KyselyCronStore.open(await lease.get());
    return (await store.listRuns(taskId, { limit: 1 }))[0]?.output ?? "";
  } finally {
    await lease.release();
  }
}
