/**
 * Scheduling latency and database load of the cron scheduler: N tasks
 * (default 1,000) created through `KyselyCronStore`, ALL firing every second
 * (`* * * * * *`), so each tick claims N occurrences: the stress case. The
 * tasks carry the time zone `UTC` (`--time-zone`; the CronTaskManager tool
 * stores the host's zone on every task it creates); `--time-zone=none`
 * creates them without one (read in the host's zone, a cheaper path of the
 * schedule library).
 * The scheduler's `executor` hook replaces the bash runner: it records the
 * moment it is called and returns success at once, so what is measured is
 * the scheduler and the store, not bash.
 *
 * Cases: one scheduler on SQLite (a temp data directory, with its scheduler
 * lock), then one and three schedulers in this process on a throwaway
 * PostgreSQL cluster (each scheduler with its own storage and pool; each
 * case on a fresh database). Each case runs for `--seconds` of real time
 * (default 20) after the schedulers' first tick (start-up: every task and
 * its last occurrence loaded); then it waits (at most 15 s) until every
 * occurrence due in that window has run, and stops. "not run" counts the
 * occurrences of the window still due then: a backlog, not yet dropped
 * (the scheduler drops occurrences only once they are `catchUpMs`, 60 s,
 * late, and the case is over before that).
 *
 * Prints, per case: latency = executor called minus `scheduledAt`
 * (p50 / p95 / p99 / max, for the occurrences due in the window),
 * occurrences due vs run, not run (still due at the end) and doubled (one
 * (task, scheduledAt) run twice), how long a tick is busy (from its task
 * fingerprint read to its queue claim, ticks started in the window); and
 * the load per second, that is per
 * tick of every scheduler, over the window: store method calls, SQL
 * statements the store built (a Kysely plugin; BEGIN / COMMIT not counted),
 * on PostgreSQL the server's own counters (`pg_stat_statements` when the
 * server preloads it, else `pg_stat_database`: commits and rows read /
 * written) and the CPU time of its processes, and the CPU time of this
 * process (`process.cpuUsage()`).
 *
 * Default `--max-runs` is the scheduler's own default (16 runs at once);
 * pass a larger one to take that limit out of the way.
 *
 * Run: pnpm exec tsx --conditions=@agent-tools/source bench/cron/scheduler-latency.ts [--tasks=1000] [--seconds=20] [--backend=sqlite,postgres] [--max-runs=16] [--pg-schedulers=1,3] [--time-zone=UTC|none|<IANA zone>]
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import {
  type CronSchedulerEvent,
  type CronSchedulerHandle,
  type CronStore,
  type CronTaskExecutor,
  KyselyCronStore,
  acquireSqliteSchedulerLock,
  startCronScheduler,
} from "@agent-tools/cron";
import { ExecaProcessRunner } from "@agent-tools/node";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { type PostgresTestCluster, findPostgresBinDir, startPostgresTestCluster } from "@agent-tools/storage/testing";
import { machineLine, ms, percentile, printTable } from "../memory/bench-util.js";
import { LoadCounters, type ServerCounters, countingStorage, countingStore, enableStatementStats, readServerCounters, serverCpuMs } from "./load-meter.js";

const TICK_MS = 1_000;
const DRAIN_MS = 15_000;

function option(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((argument) => argument.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/** One backend opened for a case: the schedulers' storages, and on PostgreSQL a monitor connection. */
interface CaseBackend {
  readonly label: string;
  readonly dialect: "sqlite" | "postgres";
  readonly storages: readonly Storage[];
  readonly monitor?: Storage;
  readonly clusterDirectory?: string;
  close(): Promise<void>;
}

/** What one case measured. */
interface CaseResult {
  readonly label: string;
  readonly schedulers: number;
  readonly due: number;
  readonly run: number;
  readonly missed: number;
  readonly doubled: number;
  readonly latencies: number[];
  readonly tickBusy: number[];
  readonly seconds: number;
  readonly calls: Map<string, number>;
  readonly statements: Map<string, number>;
  readonly cpuMs: number;
  readonly server?: { readonly before: ServerCounters; readonly after: ServerCounters; readonly cpuMs?: number; readonly note?: string };
  readonly errors: string[];
  readonly drainMs: number;
}

function minus(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const result = new Map<string, number>();
  for (const [key, value] of after) result.set(key, value - (before.get(key) ?? 0));
  return result;
}

async function runCase(
  backend: CaseBackend,
  options: {
    readonly tasks: number;
    readonly seconds: number;
    readonly maxRuns: number | undefined;
    readonly workdir: string;
    readonly timeZone: string | undefined;
  },
): Promise<CaseResult> {
  const counters = new LoadCounters();
  const stores: CronStore[] = [];
  for (const storage of backend.storages) stores.push(countingStore(await KyselyCronStore.open(countingStorage(storage, counters)), counters));
  const created = Date.now();
  for (let index = 0; index < options.tasks; index += 1) {
    await stores[0]!.createTask(
      {
        name: `bench task ${index}`,
        description: "",
        cron: "* * * * * *",
        enabled: true,
        remainingExecutions: null,
        timeoutSeconds: 30,
        type: "bash",
        script: "true",
        workdir: options.workdir,
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
      },
      created,
    );
  }

  // The executor: when it was called, per (task, occurrence).
  const started = new Map<string, number[]>();
  const executor: CronTaskExecutor = async (task, run) => {
    const at = performance.timeOrigin + performance.now();
    const key = `${task.id}@${run.scheduledAt}`;
    const list = started.get(key);
    if (list === undefined) started.set(key, [at]);
    else list.push(at);
    return { success: true, exitCode: 0, output: "" };
  };
  // Ticks: the fingerprint is the first store call of every tick after the SQLite lock, the queue
  // claim the last but the sweep (which runs every 30 s): [start, end] of each tick, per scheduler.
  const ticks: { start: number; end?: number }[][] = [];
  const firstTicks: Promise<void>[] = [];
  const errors: string[] = [];
  const processRunner = new ExecaProcessRunner();
  const schedulers: CronSchedulerHandle[] = [];
  for (const [index, store] of stores.entries()) {
    const owner = `bench-${index + 1}`;
    const own: { start: number; end?: number }[] = [];
    ticks.push(own);
    let firstTickDone: () => void = () => undefined;
    firstTicks.push(new Promise((resolve) => (firstTickDone = resolve)));
    const timedStore = new Proxy(store, {
      get(target, property, receiver) {
        const at = performance.timeOrigin + performance.now();
        if (property === "tasksFingerprint") own.push({ start: at });
        if (property === "claimQueuedRun" && own.length > 0 && own.at(-1)!.end === undefined) {
          own.at(-1)!.end = at;
          firstTickDone();
        }
        return Reflect.get(target, property, receiver);
      },
    });
    const storage = backend.storages[index]!;
    schedulers.push(
      await startCronScheduler({
        store: timedStore,
        storageDialect: backend.dialect,
        sqliteLock: backend.dialect === "sqlite" ? () => acquireSqliteSchedulerLock(storage, owner) : undefined,
        processRunner,
        executor,
        owner,
        tickMs: TICK_MS,
        maxConcurrentRuns: options.maxRuns,
        onEvent: (event: CronSchedulerEvent) => {
          if (event.type === "error") errors.push(event.message);
        },
      }),
    );
  }

  // The first tick (loading every task and its last occurrence) is start-up, not steady state: wait for it.
  await Promise.all(firstTicks);
  // The window: occurrences after that, for `seconds`.
  const serverNote = backend.monitor === undefined ? undefined : await enableStatementStats(backend.monitor);
  const statementStats = serverNote === true;
  const serverBefore = backend.monitor === undefined ? undefined : await readServerCounters(backend.monitor, statementStats);
  const serverCpuBefore = backend.clusterDirectory === undefined ? undefined : serverCpuMs(backend.clusterDirectory);
  const countersBefore = counters.snapshot();
  const cpuBefore = process.cpuUsage();
  const windowStart = Date.now();
  const windowEnd = windowStart + options.seconds * 1000;
  await new Promise((resolve) => setTimeout(resolve, windowEnd - Date.now()));
  const cpu = process.cpuUsage(cpuBefore);
  const countersAfter = counters.snapshot();
  const serverAfter = backend.monitor === undefined ? undefined : await readServerCounters(backend.monitor, statementStats);
  const serverCpuAfter = backend.clusterDirectory === undefined ? undefined : serverCpuMs(backend.clusterDirectory);

  // Due: every task on every whole second in (windowStart, windowEnd].
  const seconds: number[] = [];
  for (let second = Math.floor(windowStart / 1000) * 1000 + 1000; second <= windowEnd; second += 1000) seconds.push(second);
  const taskIds = (await stores[0]!.listTasks()).map((task) => task.id);
  const dueKeys = taskIds.flatMap((id) => seconds.map((second) => `${id}@${second}`));
  const drainStart = Date.now();
  while (Date.now() - drainStart < DRAIN_MS && dueKeys.some((key) => !started.has(key))) await new Promise((resolve) => setTimeout(resolve, 100));
  const drainMs = Date.now() - drainStart;
  for (const scheduler of schedulers) await scheduler.stop();
  await processRunner.close();

  const latencies: number[] = [];
  let run = 0;
  for (const key of dueKeys) {
    const times = started.get(key);
    if (times === undefined) continue;
    run += 1;
    latencies.push(times[0]! - Number(key.slice(key.indexOf("@") + 1)));
  }
  const doubled = [...started.values()].filter((times) => times.length > 1).length;
  // Ticks that started in the window and finished before the schedulers stopped.
  const tickBusy = ticks
    .flat()
    .flatMap((tick) => (tick.start >= windowStart && tick.start < windowEnd && tick.end !== undefined ? [tick.end - tick.start] : []));
  let server: CaseResult["server"];
  if (serverBefore !== undefined && serverAfter !== undefined) {
    server = {
      before: serverBefore,
      after: serverAfter,
      cpuMs: serverCpuBefore === undefined || serverCpuAfter === undefined ? undefined : serverCpuAfter - serverCpuBefore,
      note: serverNote === true ? undefined : serverNote,
    };
  }
  return {
    label: backend.label,
    schedulers: schedulers.length,
    due: dueKeys.length,
    run,
    missed: dueKeys.length - run,
    doubled,
    latencies: latencies.sort((a, b) => a - b),
    tickBusy: tickBusy.sort((a, b) => a - b),
    seconds: options.seconds,
    calls: minus(countersAfter.calls, countersBefore.calls),
    statements: minus(countersAfter.statements, countersBefore.statements),
    cpuMs: (cpu.user + cpu.system) / 1000,
    server,
    errors,
    drainMs,
  };
}

async function openSqliteCase(): Promise<CaseBackend> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "cron-bench-sqlite-"));
  const storage = await openSqliteStorage({ dataDir });
  return {
    label: "sqlite",
    dialect: "sqlite",
    storages: [storage],
    async close() {
      await storage.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgresCase(cluster: PostgresTestCluster, schedulers: number): Promise<CaseBackend> {
  const url = await cluster.createDatabase("cron_bench");
  const storages: Storage[] = [];
  for (let index = 0; index < schedulers; index += 1) storages.push(await openPostgresStorage({ connectionString: url }));
  const monitor = await openPostgresStorage({ connectionString: url, maxConnections: 1 });
  return {
    label: "postgres",
    dialect: "postgres",
    storages,
    monitor,
    clusterDirectory: cluster.directory,
    async close() {
      for (const storage of storages) await storage.close();
      await monitor.close();
    },
  };
}

function perSecond(value: number, seconds: number): string {
  const rate = value / seconds;
  return rate >= 100 ? Math.round(rate).toLocaleString("en") : rate.toFixed(1);
}

function report(results: readonly CaseResult[]): void {
  const latencyRows: string[][] = [
    ["backend / schedulers", "due", "run", "not run", "doubled", "p50 ms", "p95 ms", "p99 ms", "max ms", "tick busy p50 ms", "tick busy max ms"],
  ];
  for (const result of results) {
    latencyRows.push([
      `${result.label} / ${result.schedulers}`,
      result.due.toLocaleString("en"),
      result.run.toLocaleString("en"),
      String(result.missed),
      String(result.doubled),
      ms(percentile(result.latencies, 0.5)),
      ms(percentile(result.latencies, 0.95)),
      ms(percentile(result.latencies, 0.99)),
      ms(result.latencies.at(-1) ?? Number.NaN),
      ms(percentile(result.tickBusy, 0.5)),
      ms(result.tickBusy.at(-1) ?? Number.NaN),
    ]);
  }
  console.log("");
  printTable(latencyRows);

  console.log("\nload per second (one tick of every scheduler), over the window:");
  const loadRows: string[][] = [
    ["backend / schedulers", "store calls", "SQL stmts (client)", "server stmts", "commits", "rows read", "rows written", "node CPU ms", "server CPU ms"],
  ];
  for (const result of results) {
    const calls = [...result.calls.values()].reduce((sum, value) => sum + value, 0);
    const statements = [...result.statements.values()].reduce((sum, value) => sum + value, 0);
    const server = result.server;
    const delta = (pick: (counters: ServerCounters) => number | undefined) => {
      if (server === undefined) return "n/a";
      const after = pick(server.after);
      const before = pick(server.before);
      return after === undefined || before === undefined ? "n/a" : perSecond(after - before, result.seconds);
    };
    loadRows.push([
      `${result.label} / ${result.schedulers}`,
      perSecond(calls, result.seconds),
      perSecond(statements, result.seconds),
      delta((counters) => counters.statements),
      delta((counters) => counters.commits),
      delta((counters) => counters.rowsRead),
      delta((counters) => counters.rowsWritten),
      perSecond(result.cpuMs, result.seconds),
      server?.cpuMs === undefined ? "n/a" : perSecond(server.cpuMs, result.seconds),
    ]);
  }
  printTable(loadRows);

  console.log("\nstore calls per second, by method:");
  const methods = [...new Set(results.flatMap((result) => [...result.calls.keys()]))].filter((method) =>
    results.some((result) => (result.calls.get(method) ?? 0) > 0),
  );
  const methodRows: string[][] = [["method", ...results.map((result) => `${result.label} / ${result.schedulers}`)]];
  for (const method of methods) methodRows.push([method, ...results.map((result) => perSecond(result.calls.get(method) ?? 0, result.seconds))]);
  printTable(methodRows);

  console.log("\nSQL statements per second, by kind (client side):");
  const kinds = [...new Set(results.flatMap((result) => [...result.statements.keys()]))];
  const kindRows: string[][] = [["kind", ...results.map((result) => `${result.label} / ${result.schedulers}`)]];
  for (const kind of kinds) kindRows.push([kind, ...results.map((result) => perSecond(result.statements.get(kind) ?? 0, result.seconds))]);
  printTable(kindRows);

  console.log("");
  for (const result of results) {
    const note =
      result.server?.note === undefined ? "" : `; server counters from pg_stat_database (pg_stat_statements unavailable: ${result.server.note.split("\n")[0]})`;
    console.log(
      `${result.label} / ${result.schedulers}: the due occurrences ${result.missed === 0 ? "had all run" : `had NOT all run (${result.missed.toLocaleString("en")} still due)`} ${(result.drainMs / 1000).toFixed(1)} s after the window; ${result.tickBusy.length} tick(s) started in the window and ended${note}`,
    );
    if (result.errors.length > 0) console.log(`  ${result.errors.length} scheduler error event(s), first: ${result.errors[0]}`);
  }
}

async function main(): Promise<void> {
  const tasks = Number(option("tasks", "1000"));
  const seconds = Number(option("seconds", "20"));
  const wanted = option("backend", "sqlite,postgres").split(",");
  const maxRunsText = option("max-runs", "");
  const maxRuns = maxRunsText === "" ? undefined : Number(maxRunsText);
  const pgSchedulers = option("pg-schedulers", "1,3").split(",").map(Number);
  const zoneText = option("time-zone", "UTC");
  const timeZone = zoneText === "none" ? undefined : zoneText;
  console.log(machineLine());
  console.log(
    `tasks: ${tasks.toLocaleString("en")}, all every second (* * * * * *) ${timeZone === undefined ? "without a time zone of their own (host zone)" : `in ${timeZone}`}, ${seconds} s per case, tick ${TICK_MS} ms, max concurrent runs ${maxRuns ?? "16 (scheduler default)"}, executor: records and succeeds at once\n`,
  );
  const workdir = await fs.mkdtemp(path.join(os.tmpdir(), "cron-bench-work-"));
  const results: CaseResult[] = [];
  if (wanted.includes("sqlite")) {
    const backend = await openSqliteCase();
    try {
      results.push(await runCase(backend, { tasks, seconds, maxRuns, workdir, timeZone }));
    } finally {
      await backend.close();
    }
    console.log(`sqlite / 1 done`);
  }
  if (wanted.includes("postgres")) {
    if (findPostgresBinDir() === undefined) {
      console.log("(skipped postgres: no PostgreSQL binaries; set AGENT_TOOLS_POSTGRES_BIN or install postgresql)");
    } else {
      let cluster: PostgresTestCluster | undefined;
      try {
        cluster = await startPostgresTestCluster();
        for (const count of pgSchedulers) {
          const backend = await openPostgresCase(cluster, count);
          try {
            results.push(await runCase(backend, { tasks, seconds, maxRuns, workdir, timeZone }));
          } finally {
            await backend.close();
          }
          console.log(`postgres / ${count} done`);
        }
      } catch (error) {
        console.log(`(postgres: ${(error as Error).message.split("\n")[0]})`);
      } finally {
        await cluster?.stop();
      }
    }
  }
  report(results);
  console.log(
    `load at the end: ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(" / ")}`,
  );
  await fs.rm(workdir, { recursive: true, force: true });
}

await main();
