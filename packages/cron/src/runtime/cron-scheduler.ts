/**
 * The cron scheduler a host starts: it fires due occurrences of enabled
 * tasks exactly once across every scheduler on the same store (the store's
 * unique claim decides), runs bash and http tasks at once, queues prompt
 * runs for a scheduler that has a model, takes over runs whose scheduler
 * died, and keeps the run logs within their limits.
 */
import type { Workspace } from "@agent-tools/core/workspace";
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { hostname } from "node:os";
import { SdkError } from "@agent-tools/core";
import type { ModelClient, ProcessRunner } from "@agent-tools/core";
import type { CronMissedRunPolicy, CronRunRecord, CronTask } from "../domain/cron-types.js";
import { CRON_LIMITS } from "../domain/cron-types.js";
import { occurrencesBetween } from "../domain/cron-schedule.js";
import type { CronStore } from "../ports/cron-store.js";
import type { CronBashSandbox } from "./bash-task-runner.js";
import { type CronClock, systemCronClock } from "./cron-clock.js";
import { type CronTaskExecutor, executeCronRun } from "./cron-run-executor.js";
import type { CronSchedulerEvent } from "./cron-scheduler-events.js";
import type { ResolveHost } from "../outbound/ssrf-guard.js";
import type { BuildPromptRegistry } from "./prompt-task-runner.js";
import { latestOccurrence } from "./scheduler-occurrences.js";

/** How far past the tick boundary a tick wakes (clock skew between the sleep and the boundary). */
const TICK_ALIGNMENT_SLACK_MS = 5;

/** The single-scheduler lock of a SQLite store. */
export interface CronSchedulerLock {
  /** Called every tick; resolving `false` means another scheduler took the lock over: this one stops ticking. */
  heartbeat(): Promise<unknown>;
  release(): Promise<void>;
}

/** Options of {@link startCronScheduler}. */
export interface CronSchedulerOptions {
  readonly store: CronStore;
  /** `sqlite` needs `sqliteLock`: one scheduler per SQLite database. Default `memory`. */
  readonly storageDialect?: "sqlite" | "postgres" | "memory";
  /** Acquires the SQLite scheduler lock; rejects when another scheduler holds it. */
  readonly sqliteLock?: () => Promise<CronSchedulerLock>;
  readonly processRunner: ProcessRunner;
  /**
   * Confines bash tasks under each task's recorded policy (and refuses them
   * when the sandbox cannot start); absent: tasks whose registry confined
   * its commands are refused, the others run unconfined.
   */
  readonly bashSandbox?: CronBashSandbox;
  /**
   * Workspaces that are not the local disk (e.g. `createSshWorkspace`): a
   * bash task created by a registry on one of them runs through the one of
   * the same label (its processes, its workdir checked there), a prompt
   * task with the registry `buildPromptRegistry` builds on it (its third
   * argument); without it, the run is refused, never moved to this host. The scheduler's state
   * stays in its store. The host owns and closes them.
   */
  readonly workspaces?: readonly Workspace[];
  /**
   * Resolves host names for the SSRF guard of http tasks (tests, a host's
   * own resolver); default the system resolver. http tasks always go
   * through the guard and the task's recorded network rules.
   */
  readonly resolveHost?: ResolveHost;
  /** With `buildPromptRegistry`: this scheduler also runs queued prompt runs. */
  readonly model?: ModelClient;
  readonly buildPromptRegistry?: BuildPromptRegistry;
  /** Default the system clock. */
  readonly clock?: CronClock;
  /** This scheduler's lease owner name; default `<host>:<pid>:<random>`. */
  readonly owner?: string;
  /** Time between ticks, ms; default 1000. */
  readonly tickMs?: number;
  /** Lease of a running run, ms, renewed every third of it while it runs; default 60 000. */
  readonly leaseMs?: number;
  /**
   * Occurrences that fell due while no scheduler ran: `skip` (default)
   * drops them; `run_once` runs the latest of them once at start. The same
   * policy applies to occurrences more than `catchUpMs` late while running
   * (the host slept or the scheduler stalled): they are not fired one by one.
   */
  readonly missedRunPolicy?: CronMissedRunPolicy;
  /** How late an occurrence may be and still fire normally, ms; default 60 000. Older ones follow `missedRunPolicy`. */
  readonly catchUpMs?: number;
  /** IANA time zone of tasks without their own; default the host's. */
  readonly timeZone?: string;
  /** Most runs this scheduler runs at once (bash, http and prompt together); default 16. */
  readonly maxConcurrentRuns?: number;
  /** Most prompt runs this scheduler runs at once; default 2. */
  readonly maxConcurrentPromptRuns?: number;
  /** Most occurrences of one task claimed per tick; default 100 (the rest follow next tick). */
  readonly maxOccurrencesPerTick?: number;
  /**
   * Run-log retention the sweeper applies: newest `keepPerTask` finished runs
   * per task, none older than `maxAgeMs`. Default 200 runs and 30 days
   * (`CRON_LIMITS.runsKeptPerTask`, `CRON_LIMITS.runRetentionMs`).
   */
  readonly retention?: { readonly keepPerTask?: number; readonly maxAgeMs?: number };
  /** Replaces the built-in executors (tests, embedding); see {@link CronTaskExecutor}. */
  readonly executor?: CronTaskExecutor;
  /** Every event; errors are reported here and never stop the scheduler. */
  readonly onEvent?: (event: CronSchedulerEvent) => void;
}

/** A running scheduler. */
export interface CronSchedulerHandle {
  readonly owner: string;
  /**
   * Stops ticking, ABORTS the runs in progress (their process trees are
   * killed; each is recorded as a failed run saying the scheduler stopped),
   * waits for them to be recorded, then releases the SQLite lock.
   */
  stop(): Promise<void>;
  /** Runs one tick now and waits for it (tests, hosts that drive time). Runs it started are not awaited. */
  tick(): Promise<void>;
  /** Resolves when every run in progress has been recorded. */
  idle(): Promise<void>;
  /** Runs in progress. */
  readonly activeRuns: number;
}

interface TaskCursor {
  cron: string;
  timeZone: string | undefined;
  /** The latest occurrence handled (claimed by someone or skipped). */
  at: number;
}

/**
 * Starts a scheduler. On SQLite it first takes the scheduler lock (a second
 * scheduler on the same database fails to start with the lock's error).
 *
 * @example
 * const scheduler = await startCronScheduler({ store, storageDialect: "postgres", processRunner: new ExecaProcessRunner() });
 * // ...
 * await scheduler.stop();
 */
export async function startCronScheduler(options: CronSchedulerOptions): Promise<CronSchedulerHandle> {
  const dialect = options.storageDialect ?? "memory";
  if ((options as { fetch?: unknown }).fetch !== undefined) {
    throw new SdkError(
      "invalid_options",
      "startCronScheduler no longer takes `fetch`: http tasks are sent by the built-in client behind the SSRF guard (public addresses plus the networks the creating registry allowed, every redirect checked). Remove the option; pass `resolveHost` to change name resolution.",
    );
  }
  if (dialect === "sqlite" && options.sqliteLock === undefined) {
    throw new SdkError("invalid_options", "A cron scheduler on SQLite needs `sqliteLock`: only one scheduler may run per SQLite database.");
  }
  const lock = dialect === "sqlite" ? await options.sqliteLock?.() : undefined;
  const { store } = options;
  const clock = options.clock ?? systemCronClock;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const tickMs = positive(options.tickMs, 1_000);
  const leaseMs = positive(options.leaseMs, 60_000);
  const policy: CronMissedRunPolicy = options.missedRunPolicy ?? "skip";
  const maxRuns = positive(options.maxConcurrentRuns, 16);
  const maxPromptRuns = positive(options.maxConcurrentPromptRuns, 2);
  const perTick = positive(options.maxOccurrencesPerTick, 100);
  const catchUpMs = positive(options.catchUpMs, 60_000);
  const keepPerTask = positive(options.retention?.keepPerTask, CRON_LIMITS.runsKeptPerTask);
  const maxAgeMs = positive(options.retention?.maxAgeMs, CRON_LIMITS.runRetentionMs);
  const promptWorker = options.model !== undefined && options.buildPromptRegistry !== undefined;
  const startedAt = clock.now();

  const emit = (event: CronSchedulerEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A listener's failure must not stop the scheduler.
    }
  };
  const context = {
    store,
    owner,
    clock,
    leaseMs,
    processRunner: options.processRunner,
    bashSandbox: options.bashSandbox,
    workspaces: options.workspaces,
    resolveHost: options.resolveHost,
    model: options.model,
    buildPromptRegistry: options.buildPromptRegistry,
    executor: options.executor,
    emit,
  };

  const stopping = new AbortController();
  const runAbort = new AbortController();
  // Every run in progress listens to these: more than ten at once is normal.
  setMaxListeners(0, stopping.signal, runAbort.signal);
  const running = new Map<string, { readonly promise: Promise<void>; readonly prompt: boolean }>();
  let tasks: readonly CronTask[] = [];
  let fingerprint: string | undefined;
  const cursors = new Map<string, TaskCursor>();
  let firstLoad = true;
  let lastSweep = Number.NEGATIVE_INFINITY;

  const launch = (run: CronRunRecord, prompt: boolean, takenOver: boolean) => {
    const promise = executeCronRun(context, run, runAbort.signal, takenOver).finally(() => running.delete(run.id));
    running.set(run.id, { promise, prompt });
  };
  const promptRunning = () => [...running.values()].filter((entry) => entry.prompt).length;

  async function reloadTasks(): Promise<void> {
    const print = await store.tasksFingerprint();
    const key = `${print.count}:${print.versionSum}:${print.maxUpdatedAt}`;
    if (key === fingerprint) return;
    const loaded = await store.listTasks({ enabledOnly: true });
    const now = clock.now();
    const next = new Map<string, TaskCursor>();
    for (const task of loaded) {
      const timeZone = task.timeZone ?? options.timeZone;
      const known = cursors.get(task.id);
      if (known !== undefined) {
        // A changed schedule starts from the change, not from the old cursor.
        const changed = known.cron !== task.cron || known.timeZone !== timeZone;
        next.set(task.id, { cron: task.cron, timeZone, at: changed ? Math.max(known.at, task.updatedAt) : known.at });
        continue;
      }
      next.set(task.id, { cron: task.cron, timeZone, at: await initialCursor(task, timeZone, now) });
    }
    cursors.clear();
    for (const [id, cursor] of next) cursors.set(id, cursor);
    tasks = loaded;
    fingerprint = key;
    firstLoad = false;
    emit({ type: "tasks-reloaded", count: loaded.length });
  }

  /** Where a task newly seen starts: missed occurrences are skipped, or the latest runs once. */
  async function initialCursor(task: CronTask, timeZone: string | undefined, now: number): Promise<number> {
    const last = await store.lastScheduledAt(task.id);
    // Seen at start: what fell due before start was missed. Seen later (created
    // or enabled while running): it starts from its last change.
    const from = Math.max(last ?? Number.NEGATIVE_INFINITY, task.createdAt);
    const start = firstLoad ? startedAt : Math.min(now, Math.max(task.updatedAt, startedAt));
    if (from >= start) return from;
    if (firstLoad && policy === "run_once") {
      try {
        const latest = latestOccurrence(task.cron, from, start, timeZone);
        if (latest !== undefined) return latest - 1;
      } catch {
        // An unreadable expression is reported when its occurrences are computed.
      }
    }
    return start;
  }

  // Each tick starts at a random task: schedulers sharing a database then walk the tasks from different places
  // instead of queueing on the same row locks in the same order.
  async function fireDue(now: number): Promise<void> {
    const start = tasks.length === 0 ? 0 : Math.floor(Math.random() * tasks.length);
    for (const task of [...tasks.slice(start), ...tasks.slice(0, start)]) {
      if (stopping.signal.aborted) return;
      const cursor = cursors.get(task.id);
      if (cursor === undefined) continue;
      if (task.remainingExecutions === 0) {
        // Exhausted: nothing fires, and a later refill starts from then, not from here.
        cursor.at = Math.max(cursor.at, now);
        continue;
      }
      let due: number[];
      try {
        due = occurrencesBetween(task.cron, cursor.at, now, cursor.timeZone, perTick);
        const floor = now - catchUpMs;
        if (due.length > 0 && due[0]! < floor) {
          // Far behind (the host slept or stalled): these count as missed.
          const late = policy === "run_once" ? latestOccurrence(task.cron, cursor.at, floor, cursor.timeZone) : undefined;
          cursor.at = floor;
          due = occurrencesBetween(task.cron, floor, now, cursor.timeZone, perTick);
          if (late !== undefined) due.unshift(late);
        }
      } catch (caught) {
        emit({ type: "error", message: `Task ${task.id} has a cron expression that cannot be read (${task.cron}): ${messageOf(caught)}`, taskId: task.id });
        cursor.at = now;
        continue;
      }
      for (const scheduledAt of due) {
        const queue = task.type === "prompt";
        if (!queue && running.size >= maxRuns) break;
        let run: CronRunRecord | undefined;
        try {
          run = await store.claimOccurrence({ taskId: task.id, scheduledAt, owner, now, leaseMs, queue });
        } catch (caught) {
          emit({ type: "error", message: `Could not claim ${new Date(scheduledAt).toISOString()} of task ${task.id}: ${messageOf(caught)}`, taskId: task.id });
          break;
        }
        cursor.at = Math.max(cursor.at, scheduledAt);
        if (run === undefined) continue;
        if (queue) emit({ type: "run-queued", taskId: task.id, runId: run.id, scheduledAt });
        else launch(run, false, false);
      }
    }
  }

  async function takeOver(now: number): Promise<void> {
    const free = maxRuns - running.size;
    if (free <= 0) return;
    const runs = await store.takeOverExpiredLeases({ owner, now, leaseMs, limit: free });
    for (const run of runs) launch(run, false, true);
  }

  async function claimQueued(now: number): Promise<void> {
    if (!promptWorker && options.executor === undefined) return;
    while (!stopping.signal.aborted && running.size < maxRuns && promptRunning() < maxPromptRuns) {
      const run = await store.claimQueuedRun({ owner, now, leaseMs });
      if (run === undefined) return;
      launch(run, true, false);
    }
  }

  async function sweep(now: number): Promise<void> {
    if (now - lastSweep < CRON_LIMITS.sweepIntervalMs) return;
    lastSweep = now;
    const expired = await store.expireQueuedRuns(now - CRON_LIMITS.promptQueueExpiryMs, now);
    if (expired.length > 0) emit({ type: "runs-expired", count: expired.length });
    const pruned = await store.pruneRuns({ keepPerTask, olderThan: now - maxAgeMs });
    if (pruned > 0) emit({ type: "runs-pruned", count: pruned });
  }

  async function renewLock(): Promise<void> {
    if (lock === undefined) return;
    if ((await lock.heartbeat()) !== false) return;
    emit({
      type: "error",
      message: "Another scheduler took over the SQLite scheduler lock: this scheduler stops firing. Stop it, or start only one scheduler per SQLite database.",
    });
    stopping.abort();
  }

  const steps: ReadonlyArray<readonly [string, (now: number) => Promise<void>]> = [
    // First: a scheduler that lost the SQLite lock must not fire again.
    ["renew the SQLite scheduler lock", renewLock],
    ["reload the tasks", () => reloadTasks()],
    ["fire due occurrences", fireDue],
    ["take over lapsed runs", takeOver],
    ["claim queued prompt runs", claimQueued],
    ["expire and prune runs", sweep],
  ];
  let ticking: Promise<void> = Promise.resolve();
  const tick = () => {
    ticking = ticking.then(async () => {
      for (const [what, step] of steps) {
        if (stopping.signal.aborted) return;
        try {
          await step(clock.now());
        } catch (caught) {
          emit({ type: "error", message: `The cron scheduler could not ${what}: ${messageOf(caught)}` });
        }
      }
    });
    return ticking;
  };

  emit({ type: "started", owner });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      await tick();
      // To the next multiple of tickMs (plus a few ms): occurrences fall on whole seconds, so a tick lands just after
      // they are due instead of up to a whole tick later, however long the tick's own work took.
      await clock.sleep(tickMs - (clock.now() % tickMs) + TICK_ALIGNMENT_SLACK_MS, stopping.signal);
    }
  })();

  const idle = async () => {
    while (running.size > 0) await Promise.allSettled([...running.values()].map((entry) => entry.promise));
  };
  let stopped: Promise<void> | undefined;
  return {
    owner,
    tick,
    idle,
    get activeRuns() {
      return running.size;
    },
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        await loop;
        runAbort.abort();
        await idle();
        try {
          await lock?.release();
        } catch (caught) {
          emit({ type: "error", message: `Could not release the SQLite scheduler lock: ${messageOf(caught)}` });
        }
        emit({ type: "stopped", owner });
      })();
      return stopped;
    },
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
