/**
 * One scheduler process of the exactly-once test: its own PostgreSQL pool,
 * a clock that runs `speed` times faster than real time from `base`, and an
 * in-process executor (the scheduler's `executor` hook) that takes a little
 * real time and succeeds. Prints `ready` once started; stops cleanly on
 * SIGTERM. The real time at which fast time is `base` comes on stdin (one
 * line) after `ready`, so every process shares it however long it took to
 * start. With `brokenClaim` its claims do not race for the same
 * occurrence (each scheduler shifts the time by its own milliseconds), to
 * show the test notices doubled runs.
 *
 * Configuration: the JSON in the environment variable CRON_ONCE_CHILD.
 */
import { openPostgresStorage } from "@agent-tools/storage";
import { ExecaProcessRunner } from "@agent-tools/node";
import { KyselyCronStore } from "../../stores/kysely-cron-store.js";
import type { CronClock } from "../cron-clock.js";
import { startCronScheduler } from "../cron-scheduler.js";
import { wrapStore } from "./scheduler-harness.js";

interface ChildConfig {
  readonly url: string;
  readonly owner: string;
  /** Fast time at `realBase`. */
  readonly base: number;
  readonly speed: number;
  readonly runRealMs: number;
  readonly brokenClaim?: boolean;
  readonly shift?: number;
}

const config = JSON.parse(process.env.CRON_ONCE_CHILD ?? "{}") as ChildConfig;
let realBase = Number.POSITIVE_INFINITY;
const clock: CronClock = {
  now: () => Math.floor(config.base + (Date.now() - realBase) * config.speed),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const onAbort = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms / config.speed);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

const storage = await openPostgresStorage({ connectionString: config.url, maxConnections: 4 });
const real = await KyselyCronStore.open(storage);
const store = config.brokenClaim
  ? wrapStore(real, { claimOccurrence: (input) => real.claimOccurrence({ ...input, scheduledAt: input.scheduledAt + (config.shift ?? 0) }) })
  : real;
const processRunner = new ExecaProcessRunner();
process.stdout.write("ready\n");
realBase = await new Promise<number>((resolve) => {
  let input = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    input += chunk;
    if (input.includes("\n")) resolve(Number(input.trim()));
  });
});
const scheduler = await startCronScheduler({
  store,
  storageDialect: "postgres",
  processRunner,
  clock,
  owner: config.owner,
  tickMs: 1_000,
  leaseMs: 30_000,
  // 60 s of real time: a loaded machine's stall must not turn occurrences into missed ones (the test is about claims).
  catchUpMs: 60_000 * config.speed,
  // Keep every run: the test checks the whole window.
  retention: { keepPerTask: 1_000_000 },
  executor: (_task, run) =>
    new Promise((resolve) => setTimeout(() => resolve({ success: true, exitCode: 0, output: `${config.owner} ran ${run.scheduledAt}` }), config.runRealMs)),
  onEvent: (event) => {
    if (event.type === "error") process.stderr.write(`${config.owner}: ${event.message}\n`);
    if (event.type === "run-started") process.stdout.write(event.takenOver ? `takeover ${event.runId}\n` : `run ${event.runId}\n`);
  },
});
process.stdout.write("started\n");
process.on("SIGTERM", () => {
  void (async () => {
    await scheduler.stop();
    await processRunner.close();
    await storage.close();
    process.stdout.write("stopped\n");
    process.exit(0);
  })();
});
