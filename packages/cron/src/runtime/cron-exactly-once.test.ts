/**
 * Exactly once across processes: three scheduler processes, each with its
 * own pool, on one real PostgreSQL server fire a task every second for
 * 1,000 occurrences; one of them is SIGKILLed midway. Time is compressed:
 * each child's clock runs 50 times faster than real time (the database,
 * the processes and the leases are real), and the task runs through the
 * scheduler's in-process `executor` hook (200 ms of real time per run: 10 s of its fast time, so each scheduler always holds some leased runs), so
 * the test is about claims, leases and take-over rather than process start
 * costs. Afterwards every occurrence of the window has exactly one run
 * record, done and successful: none missing, none doubled.
 *
 * The same harness with a broken claim (the schedulers do not race for the
 * same record) must report doubled occurrences: the check can fail.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPostgresStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CronRunRecord } from "../domain/cron-types.js";
import { KyselyCronStore } from "../stores/kysely-cron-store.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const childScript = path.join(here, "__fixtures__", "exactly-once-scheduler.ts");
const repositoryRoot = path.resolve(here, "../../../..");
const SPEED = 50;
const BASE = Date.UTC(2030, 0, 1);
const children: ChildProcess[] = [];
let cluster: PostgresTestCluster | undefined;

beforeAll(async () => {
  cluster = await startPostgresTestCluster();
}, 120_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await cluster?.stop();
}, 60_000);

interface Scheduler {
  readonly child: ChildProcess;
  readonly ready: Promise<void>;
  readonly exited: Promise<void>;
  output(): string;
}

function startScheduler(config: Record<string, unknown>): Scheduler {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", childScript], {
    cwd: repositoryRoot,
    env: { ...process.env, CRON_ONCE_CHILD: JSON.stringify(config) },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout?.setEncoding("utf8");
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    output += chunk;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("ready\n")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`scheduler ${String(config.owner)} exited (${code}) before it was ready:\n${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { child, ready, exited, output: () => output };
}

/** What is wrong with the runs of (BASE, BASE + count s]: missing, doubled, unfinished or failed occurrences. */
function problems(runs: readonly CronRunRecord[], count: number): string[] {
  const bySecond = new Map<number, CronRunRecord[]>();
  for (const run of runs) {
    const second = Math.floor(run.scheduledAt / 1_000) * 1_000;
    bySecond.set(second, [...(bySecond.get(second) ?? []), run]);
  }
  const found: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    const at = BASE + index * 1_000;
    const records = bySecond.get(at) ?? [];
    if (records.length === 0) found.push(`missing ${index}`);
    if (records.length > 1) found.push(`doubled ${index} (${records.length} records)`);
    for (const record of records) {
      if (record.scheduledAt !== at) found.push(`occurrence ${index} recorded at ${record.scheduledAt - at} ms off`);
      if (record.state !== "done" || !record.success) found.push(`occurrence ${index} is ${record.state}, success=${record.success}`);
    }
    bySecond.delete(at);
  }
  for (const [at, records] of bySecond) found.push(`outside the window: ${at} (${records.length})`);
  return found;
}

async function runScenario(options: { count: number; schedulers: number; killAfterRealMs?: number; brokenClaim?: boolean; deadlineMs: number }) {
  if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
  const url = await cluster.createDatabase("cron_once");
  const storage = await openPostgresStorage({ connectionString: url });
  try {
    const store = await KyselyCronStore.open(storage);
    const task = await store.createTask(
      {
        name: "every second",
        description: "",
        cron: "* * * * * *",
        enabled: true,
        remainingExecutions: options.count,
        timeoutSeconds: 30,
        type: "bash",
        script: "true",
        workdir: "/",
        timeZone: "UTC",
      },
      BASE,
    );
    const schedulers = Array.from({ length: options.schedulers }, (_, index) =>
      startScheduler({ url, owner: `scheduler-${index + 1}`, base: BASE, speed: SPEED, runRealMs: 200, brokenClaim: options.brokenClaim, shift: index + 1 }),
    );
    await Promise.all(schedulers.map((scheduler) => scheduler.ready));
    // Every process is up: fast time reaches BASE half a second from now.
    const realBase = Date.now() + 500;
    for (const scheduler of schedulers) scheduler.child.stdin?.write(`${realBase}\n`);
    let killed: Scheduler | undefined;
    if (options.killAfterRealMs !== undefined) {
      await new Promise((resolve) => setTimeout(resolve, realBase + options.killAfterRealMs! - Date.now()));
      killed = schedulers[0];
      // Killed right as it starts a run (each takes 200 ms of real time), so it dies holding a lease the others must take over,
      // however late a loaded machine lets this process look.
      const victim = killed;
      if (victim !== undefined) {
        await new Promise<void>((resolve) => {
          const kill = () => {
            clearTimeout(fallback);
            victim.child.stdout?.off("data", onData);
            victim.child.kill("SIGKILL");
            resolve();
          };
          const onData = (chunk: string) => {
            if (/^run /m.test(chunk)) kill();
          };
          // A scheduler that starts no run within 5 s is killed anyway (the takeover check then says so).
          const fallback = setTimeout(kill, 5_000);
          victim.child.stdout?.on("data", onData);
        });
        await victim.exited;
      }
    }
    // Wait for the window to be fired and every run recorded.
    const until = realBase + (options.count * 1_000) / SPEED;
    let runs: readonly CronRunRecord[] = [];
    while (Date.now() < realBase + options.deadlineMs) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      runs = await store.listRuns(task.id, { limit: 500_000 });
      // Every occurrence recorded and done (a lagging scheduler may still be creating the last ones after `until`).
      if (Date.now() > until + 1_000 && runs.length >= options.count && runs.every((run) => run.state === "done")) break;
    }
    const alive = schedulers.filter((scheduler) => scheduler !== killed);
    for (const scheduler of alive) scheduler.child.kill("SIGTERM");
    await Promise.all(alive.map((scheduler) => scheduler.exited));
    runs = await store.listRuns(task.id, { limit: 500_000 });
    const logs = schedulers.map((scheduler) => scheduler.output()).join("");
    return { runs, logs, killedOwner: killed === undefined ? undefined : "scheduler-1" };
  } finally {
    await storage.close();
  }
}

describe("exactly once across scheduler processes on PostgreSQL", () => {
  it("fires 1,000 one-second occurrences exactly once with three schedulers, one SIGKILLed midway", async () => {
    const count = 1_000;
    const { runs, logs } = await runScenario({ count, schedulers: 3, killAfterRealMs: 9_000, deadlineMs: 80_000 });
    expect(problems(runs, count)).toEqual([]);
    expect(runs).toHaveLength(count);
    // Each scheduler won some occurrences, and the survivors took over what the killed one held.
    const winners = new Set(runs.map((run) => run.output.split(" ")[0]));
    expect(winners).toEqual(new Set(["scheduler-1", "scheduler-2", "scheduler-3"]));
    const lastByKilled = Math.max(...runs.filter((run) => run.output.startsWith("scheduler-1 ")).map((run) => run.scheduledAt));
    expect(lastByKilled).toBeLessThan(BASE + 9_000 * SPEED + 60_000);
    expect(logs).toMatch(/takeover run_/);
  }, 150_000);

  it("the check catches a claim that does not make the schedulers race for one record", async () => {
    const count = 60;
    const { runs } = await runScenario({ count, schedulers: 3, brokenClaim: true, deadlineMs: 8_000 });
    const found = problems(runs, count);
    expect(found.some((problem) => problem.startsWith("doubled"))).toBe(true);
  }, 60_000);
});
